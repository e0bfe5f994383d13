import Foundation
import JSONDocument

/// The scenario reader's strict JSON syntax, for other JSON the bench reads:
/// a vendor's file or `--attributes`. Foundation's reader blames the
/// enclosing object for a number beyond a double and gives no line; this
/// names the line and column, or the JSON path, of the first problem.
public enum StrictJSON {
  /// Throws the first syntax problem of `data`: a repeated field, a trailing
  /// comma, a number beyond a double, or a syntax error with its line and column.
  public static func check(_ data: Data) throws(ScenarioError) {
    _ = try JSONValue.parse(data)
  }
}
