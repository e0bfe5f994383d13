import Foundation
import Testing

@testable import AnalyticsTable

/// Paths into rows, and `--map` files read as strictly as a scenario.
@Suite struct ExportMappingTests {
  private func row(_ text: String) throws -> JSONValue {
    try JSONValue.parse(Array(text.utf8)[...])
  }

  @Test func pathsFindNestedAndRepeatedFields() throws {
    let firebase = try row(#"""
      {"event_params": [{"key": "currency", "value": {"string_value": "USD", "int_value": null, "double_value": null}},
                        {"key": "value", "value": {"string_value": null, "int_value": null, "double_value": 12.99}}],
       "properties": {"Experiment name": "paywall", "nested": {"deep": 7}}}
      """#)
    #expect(FieldPath("event_params[value]")!.resolve(in: firebase)?.text == "12.99")
    #expect(FieldPath("event_params[currency]")!.resolve(in: firebase)?.text == "USD")
    #expect(FieldPath("event_params[missing]")!.resolve(in: firebase) == nil)
    #expect(FieldPath("properties.Experiment name")!.resolve(in: firebase)?.text == "paywall")
    #expect(FieldPath("properties.nested.deep")!.resolve(in: firebase)?.text == "7")
    #expect(FieldPath("properties.nested")!.resolve(in: firebase)?.text == nil)
    // Every slot null: the value is null.
    let unset = try row(#"{"p": [{"key": "k", "value": {"string_value": null, "int_value": null}}]}"#)
    #expect(FieldPath("p[k]")!.resolve(in: unset) == .null)
    for text in ["", ".a", "a.", "a..b", "a[", "a[]", "a[k]b", "[k]", "a]b"] {
      #expect(FieldPath(text) == nil, "\(text)")
    }
    #expect(FieldPath("a[k].b")!.steps == [.member("a"), .keyed("k"), .member("b")])
  }

  @Test func aMappingFileReadsAsThePresetItDescribes() throws {
    let text = #"""
      {"format": "jsonl", "event": "event_type", "unit": "amplitude_id", "time": "event_time", "timeFormat": "iso8601",
       "exposure": {"event": "$exposure", "experiment": "event_properties.flag_key", "variant": "event_properties.variant"},
       "properties": "event_properties", "appVersion": "version_name", "platform": "platform", "sessionEvent": "session_start"}
      """#
    #expect(try ExportMapping(json: Array(text.utf8), path: "m.json") == ExportPreset.amplitude.mapping)
    let firebase = #"""
      {"format": "jsonl", "event": "event_name", "unit": ["user_pseudo_id"], "time": "event_timestamp", "timeFormat": "unix-us",
       "exposure": {"userProperties": "user_properties", "keyPrefix": "firebase_exp_"}, "properties": "event_params[]",
       "appVersion": "app_info.version", "platform": "platform", "sessionEvent": "session_start", "baseline": "0"}
      """#
    #expect(try ExportMapping(json: Array(firebase.utf8), path: "m.json") == ExportPreset.firebase.mapping)
    #expect(ExportPreset.firebase.mapping!.propertyPath("value") == FieldPath("event_params[value]"))
    #expect(ExportPreset.segment.mapping!.propertyPath("revenue") == FieldPath("properties.revenue"))
  }

  @Test func aBadMappingNamesTheMemberAndTheFix() {
    let base = #""event": "e", "unit": "u", "time": "t", "exposure": {"event": "x", "experiment": "a", "variant": "b"}"#
    let cases: [(String, String)] = [
      ("[]", "m.json: must be a JSON object of the mapping's members"),
      ("{\(base), \"units\": \"u\"}", "m.json: 'units' is not a member of a mapping (members: format, event, unit, time, timeFormat, exposure, properties, deduplicate, appVersion, platform, sessionEvent, baseline, nonArms)"),
      (#"{"unit": "u", "time": "t", "exposure": {"event": "x", "experiment": "a", "variant": "b"}}"#,
       #"m.json: event is missing: the path of the event's name, e.g. "event_type""#),
      ("{\(base), \"timeFormat\": \"epoch\"}", "m.json: timeFormat must be one of day, iso8601, unix, unix-ms, unix-us, not 'epoch'"),
      ("{\(base), \"format\": \"parquet\"}", "m.json: format must be csv or jsonl, not 'parquet'"),
      (#"{"event": "e", "unit": [], "time": "t", "exposure": {"event": "x", "experiment": "a", "variant": "b"}}"#,
       "m.json: unit must name at least one path"),
      (#"{"event": "e..f", "unit": "u", "time": "t", "exposure": {"event": "x", "experiment": "a", "variant": "b"}}"#,
       "m.json: event 'e..f' is not a path: names joined by '.', NAME[KEY] for a repeated {key, value} field"),
      (#"{"event": "e", "unit": "u", "time": "t", "exposure": {"event": "x", "variant": "b"}}"#,
       "m.json: exposure.experiment is missing: the path of the experiment's name in an exposure"),
      (#"{"event": "e", "unit": "u", "time": 3, "exposure": {"event": "x", "experiment": "a", "variant": "b"}}"#,
       "m.json: time must be a non-empty string"),
      (#"{"event": "e", "unit": "u", "time": "t", "exposure": {"userProperties": "p", "experiment": "a"}}"#,
       "m.json: exposure.experiment does not go with exposure.userProperties (members: userProperties, keyPrefix)"),
      ("{\(base), \"deduplicate\": \"event\"}", "m.json: deduplicate must be an array of paths"),
      ("{\(base),}", "m.json: is not JSON: at byte \(base.utf8.count + 3), expected a member's name in quotes"),
    ]
    for (text, message) in cases {
      #expect(throws: ExportMappingError(description: message), "\(text)") {
        try ExportMapping(json: Array(text.utf8), path: "m.json")
      }
    }
  }
}
