import Foundation
import Lab

/// Turns the JSON tree into a `Scenario`, field by field, with the path of
/// every field in its errors.
struct ScenarioReader {
  /// The platforms `service.framework` may name.
  let platforms: [PlatformTraits]
  var warnings: [ScenarioError] = []

  init(platforms: [PlatformTraits]) {
    self.platforms = platforms
  }

  mutating func scenario(_ node: JSONNode) throws(ScenarioError) -> Scenario {
    let object = try node.object(fields: ScenarioFields.scenario)
    // `$schema` tells an editor where the JSON Schema is; the bench needs only that it is text.
    _ = try object.optional("$schema")?.string()
    let nameNode = try object.required("name")
    let name = try nameNode.string()
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
      throw nameNode.error("must be letters, digits, '-' or '_' (it names the report's folder), e.g. \"upgrade\"")
    }
    let seedNode = try object.required("seed")
    let seed = try seedNode.integer()
    guard seed >= 0 else { throw seedNode.error("must be 0 or greater") }
    let devices = try object.required("devices").integer(in: ScenarioLimits.devices)
    let days = try object.required("days").integer(in: ScenarioLimits.days)
    var naming = NamingPolicy.strict
    if let node = object.optional("naming") {
      guard let policy = NamingPolicy(rawValue: try node.string()) else {
        throw node.error("must be \"strict\" or \"lenient\"")
      }
      naming = policy
    }
    let versionsNode = try object.required("versions")
    let versionNodes = try versionsNode.array(count: ScenarioLimits.versions, of: "versions")
    var versions: [AppVersion] = []
    var variantNames = NameUnion(of: "variants", limit: ScenarioLimits.variants.upperBound)
    for (index, versionNode) in versionNodes.enumerated() {
      let version = try appVersion(versionNode, isFirst: index == 0, days: days, naming: naming)
      if let previous = versions.last {
        guard version.releaseDay > previous.releaseDay else {
          throw ScenarioError(
            path: "\(versionNode.path).releaseDay",
            message: "must be later than \(previous.version)'s release day \(previous.releaseDay): list versions in release order")
        }
      }
      guard version.releaseDay < days else {
        throw ScenarioError(
          path: "\(versionNode.path).releaseDay", message: "must be before the last day: the run lasts \(days) days")
      }
      guard !versions.contains(where: { $0.version == version.version }) else {
        throw ScenarioError(path: "\(versionNode.path).version", message: "'\(version.version)' is listed twice")
      }
      for (index, experiment) in version.experiments.enumerated() {
        try variantNames.add(experiment.variants.map(\.name), of: experiment.name, at: "\(versionNode.path).experiments[\(index)].variants")
      }
      versions.append(version)
    }
    let population = try object.optional("population").map { node throws(ScenarioError) in
      try self.population(node, days: days)
    } ?? .uniform
    let remote = try object.optional("remote").map { node throws(ScenarioError) in
      try self.remote(node, days: days, naming: naming, segments: population.segments.map(\.name), versions: versions)
    }
    let service = try object.optional("service").map { node throws(ScenarioError) in
      try self.service(
        node, days: days, naming: naming, segments: population.segments.map(\.name),
        takenNames: Set(versions.flatMap(\.experiments).map(\.name) + (remote?.experimentNames ?? [])))
    }
    let catalog = ExperimentCatalog(versions: versions, remote: remote, service: service)
    var displayProbabilities: [String: Double] = [:]
    if let displayNode = object.optional("displayProbability") {
      for (experiment, node) in try displayNode.members() {
        try catalog.requireExperiment(experiment, at: node)
        displayProbabilities[experiment] = try probability(node, allowZero: false)
      }
    }
    var displayMoments: [String: DisplayMoment] = [:]
    if let momentNode = object.optional("displayMoment") {
      for (experiment, node) in try momentNode.members() {
        try catalog.requireExperiment(experiment, at: node)
        let text = try node.string()
        guard let moment = DisplayMoment(rawValue: text) else {
          throw node.error(
            "must be one of \(DisplayMoment.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
        }
        displayMoments[experiment] = moment
      }
    }
    var metrics: [Metric] = []
    for metricNode in try object.optional("metrics")?.array(count: ScenarioLimits.metrics, of: "metrics") ?? [] {
      let metric = try self.metric(metricNode, catalog: catalog, population: population)
      guard !metrics.contains(where: { $0.name == metric.name }) else {
        throw ScenarioError(path: "\(metricNode.path).name", message: "'\(metric.name)' is defined twice")
      }
      // How fast a device gets used to a change is the experiment's: one half-life for all its metrics.
      for (experiment, effect) in metric.novelty.sorted(by: { $0.key < $1.key }) {
        if let other = metrics.first(where: { $0.novelty[experiment] != nil }),
          let halfLife = other.novelty[experiment]?.halfLifeDays, halfLife != effect.halfLifeDays
        {
          throw ScenarioError(
            path: "\(metricNode.path).novelty.\(experiment).halfLifeDays",
            message: "is \(NumberText.plain(effect.halfLifeDays)) where \(other.name) gives \(experiment) \(NumberText.plain(halfLife)): "
              + "how fast devices get used to an experiment is one half-life for all its metrics")
        }
      }
      metrics.append(metric)
    }
    var ratios: [RatioMetric] = []
    for ratioNode in try object.optional("ratios")?.array(count: ScenarioLimits.metrics, of: "ratios") ?? [] {
      let ratio = try self.ratio(ratioNode, metrics: metrics)
      guard !ratios.contains(where: { $0.name == ratio.name }) else {
        throw ScenarioError(path: "\(ratioNode.path).name", message: "'\(ratio.name)' is defined twice")
      }
      ratios.append(ratio)
    }
    let analysis = try object.optional("analysis").map { node throws(ScenarioError) in
      try self.analysis(node, metrics: metrics)
    } ?? .standard
    let churn = try object.optional("churn")?.array(count: ScenarioLimits.changes, of: "changes").map { node throws(ScenarioError) in
      try self.churn(node, catalog: catalog, remote: remote)
    } ?? []
    let enrollment = try object.optional("enrollment").map { node throws(ScenarioError) in
      try self.enrollment(node, catalog: catalog, segments: population.segments.map(\.name))
    } ?? [:]
    var scenario = Scenario(
      name: name, description: try object.optional("description")?.string() ?? "", seed: UInt64(seed),
      devices: devices, days: days, naming: naming, versions: versions, population: population,
      displayProbabilities: displayProbabilities, metrics: metrics, analysis: analysis, remote: remote, service: service,
      churn: churn)
    scenario.enrollment = enrollment
    scenario.displayMoments = displayMoments
    scenario.ratios = ratios
    scenario.expectations = try object.optional("expect").map { node throws(ScenarioError) in
      try self.expectations(node, catalog: catalog, versions: versions, service: service, enrollment: enrollment)
    } ?? []
    return scenario
  }

  /// A ratio of two of the scenario's metrics, named apart from them.
  private func ratio(_ node: JSONNode, metrics: [Metric]) throws(ScenarioError) -> RatioMetric {
    let object = try node.object(fields: ScenarioFields.ratio)
    let nameNode = try object.required("name")
    let name = try nameNode.string()
    guard NamingConvention.lowerCamelCase.accepts(name) else {
      throw nameNode.error("must be lowerCamelCase, e.g. 'revenuePerSession'")
    }
    guard !metrics.contains(where: { $0.name == name }) else {
      throw nameNode.error("'\(name)' is a metric's name already: a ratio needs a name of its own")
    }
    let names = metrics.map(\.name)
    func metric(_ field: String) throws(ScenarioError) -> Metric {
      let fieldNode = try object.required(field)
      let metricName = try fieldNode.string()
      guard let metric = metrics.first(where: { $0.name == metricName }) else {
        throw fieldNode.error(
          "'\(metricName)' is not a metric of the scenario (metrics: \(names.isEmpty ? "none" : names.joined(separator: ", ")))")
      }
      return metric
    }
    let numerator = try metric("numerator"), denominator = try metric("denominator")
    guard numerator.name != denominator.name else {
      throw try object.required("denominator").error("must differ from the numerator: a metric over itself is 1")
    }
    guard denominator.baseline > 0, denominator.segmentBaselines.values.allSatisfy({ $0 > 0 }) else {
      throw try object.required("denominator").error(
        "'\(denominator.name)' has a baseline of 0 in some segment: a ratio over it would divide by 0 there")
    }
    return RatioMetric(name: name, numerator: numerator.name, denominator: denominator.name)
  }

  func probability(_ node: JSONNode, allowZero: Bool = true) throws(ScenarioError) -> Double {
    let value = try node.double()
    guard value <= 1, allowZero ? value >= 0 : value > 0 else {
      throw node.error(allowZero ? "must lie between 0 and 1" : "must be greater than 0 and at most 1")
    }
    return value
  }

  private mutating func metric(_ node: JSONNode, catalog: ExperimentCatalog, population: Population) throws(ScenarioError) -> Metric {
    let segments = population.segments.map(\.name)
    let object = try node.object(fields: ScenarioFields.metric)
    let name = try object.required("name").string()
    guard NamingConvention.lowerCamelCase.accepts(name) else {
      throw try object.required("name").error("must be lowerCamelCase, e.g. 'subscribed' or 'revenue'")
    }
    let kindNode = try object.required("kind")
    let kind: Metric.Kind
    switch try kindNode.string() {
    case "conversion":
      for field in ["distribution", "sigma", "shape"] where object.optional(field) != nil {
        throw try object.required(field).error("applies to continuous metrics only: remove it")
      }
      kind = .conversion
    case "continuous":
      kind = .continuous(try distribution(object))
    default:
      throw kindNode.error("must be \"conversion\" or \"continuous\"")
    }
    let isConversion = kind == .conversion
    func baselineValue(_ node: JSONNode) throws(ScenarioError) -> Double {
      if isConversion { return try probability(node) }
      let value = try node.double()
      guard Metric.acceptedMeans.contains(value) else {
        throw node.error("must lie between 1e-12 and 1e15: it is the mean amount per device (scale the unit to fit)")
      }
      return value
    }
    let baseline = try baselineValue(object.required("baseline"))
    var segmentBaselines: [String: Double] = [:]
    for (segment, valueNode) in try object.optional("segmentBaselines")?.members() ?? [] {
      try requireSegment(segment, among: segments, at: valueNode)
      segmentBaselines[segment] = try baselineValue(valueNode)
    }
    var lifts: [String: [String: Double]] = [:]
    if let liftsNode = object.optional("lifts") { lifts = try self.lifts(liftsNode, catalog: catalog) }
    var segmentLifts: [String: [String: [String: Double]]] = [:]
    for (segment, liftsNode) in try object.optional("segmentLifts")?.members() ?? [] {
      try requireSegment(segment, among: segments, at: liftsNode)
      segmentLifts[segment] = try self.lifts(liftsNode, catalog: catalog)
    }
    let covariateCorrelation = try object.optional("covariateCorrelation").map { node throws(ScenarioError) in
      try node.double(in: ScenarioLimits.covariateCorrelation)
    }
    var metric = Metric(
      name: name, kind: kind, baseline: baseline, segmentBaselines: segmentBaselines, lifts: lifts,
      segmentLifts: segmentLifts, covariateCorrelation: covariateCorrelation)
    if let noveltyNode = object.optional("novelty") { metric.novelty = try novelty(noveltyNode, catalog: catalog) }
    if let quantilesNode = object.optional("quantiles") {
      guard !isConversion else {
        throw quantilesNode.error("applies to continuous metrics only: every quantile of a conversion is 0 or 1")
      }
      var names: [String] = []
      for quantileNode in try quantilesNode.array(count: ScenarioLimits.quantiles, of: "quantiles") {
        let quantile = try quantileNode.double(in: ScenarioLimits.quantile)
        let quantileName = Metric.quantileName(metric: name, quantile: quantile)
        guard !names.contains(quantileName) else {
          throw quantileNode.error("'\(quantileName)' is listed twice: give each quantile once")
        }
        names.append(quantileName)
        metric.quantiles.append(quantile)
      }
    }
    if let winsorizeNode = object.optional("winsorize") {
      guard !isConversion else {
        throw winsorizeNode.error("applies to continuous metrics only: a conversion is 0 or 1 and has no tail to cap")
      }
      metric.winsorize = try winsorizeNode.double(in: ScenarioLimits.winsorize)
    }
    let largest = metric.largestMean(in: population)
    guard largest <= Metric.acceptedMeans.upperBound else {
      throw node.error(
        "a device shown every experiment's best variant would have a mean of \(String(format: "%.3g", largest)), above the largest accepted "
          + "1e15: lower the baseline or the lifts (the mean is the baseline times 1 + the largest lift of each experiment)")
    }
    return metric
  }

  private func distribution(_ object: JSONObject) throws(ScenarioError) -> ContinuousDistribution {
    let node = try object.required("distribution")
    switch try node.string() {
    case "lognormal":
      guard object.optional("shape") == nil else { throw try object.required("shape").error("applies to gamma only: use sigma") }
      let sigmaNode = try object.required("sigma")
      let sigma = try sigmaNode.double()
      guard sigma > 0, sigma <= 5 else { throw sigmaNode.error("must be greater than 0 and at most 5") }
      return .lognormal(sigma: sigma)
    case "gamma":
      guard object.optional("sigma") == nil else { throw try object.required("sigma").error("applies to lognormal only: use shape") }
      let shapeNode = try object.required("shape")
      return .gamma(shape: try shapeNode.double(in: ScenarioLimits.gammaShape))
    default:
      throw node.error("must be \"lognormal\" or \"gamma\"")
    }
  }

  func requireSegment(_ segment: String, among segments: [String], at node: JSONNode) throws(ScenarioError) {
    guard segments.contains(segment) else {
      throw node.error("'\(segment)' is not a segment of the population (segments: \(segments.joined(separator: ", ")))")
    }
  }

  private func analysis(_ node: JSONNode, metrics definitions: [Metric]) throws(ScenarioError) -> AnalysisSettings {
    let metrics = definitions.map(\.name)
    let object = try node.object(fields: ScenarioFields.analysis)
    var settings = AnalysisSettings.standard
    if let alphaNode = object.optional("alpha") {
      settings.alpha = try alphaNode.double()
      guard settings.alpha > 0, settings.alpha < 0.5 else { throw alphaNode.error("must lie between 0 and 0.5, e.g. 0.05") }
    }
    if let correctionNode = object.optional("correction") {
      settings.correction = try choice(correctionNode, AnalysisSettings.Correction.self)
    }
    if let attributionNode = object.optional("attribution") {
      settings.attribution = try choice(attributionNode, AnalysisSettings.Attribution.self)
    }
    if let looksNode = object.optional("dailyLooks") {
      guard case .bool(let looks) = looksNode.value else { throw looksNode.error("must be true or false") }
      settings.dailyLooks = looks
    }
    for (metric, marginNode) in try object.optional("guardrails")?.members() ?? [] {
      guard metrics.contains(metric) else {
        throw marginNode.error("'\(metric)' is not a metric of the scenario (metrics: \(metrics.joined(separator: ", ")))")
      }
      let margin = try marginNode.double()
      guard margin > 0, margin < 1 else {
        throw marginNode.error("must lie between 0 and 1: the largest acceptable loss as a relative lift, e.g. 0.02 for 2%")
      }
      settings.guardrails[metric] = margin
    }
    for (metric, differenceNode) in try object.optional("minimumDetectableDifference")?.members() ?? [] {
      guard let definition = definitions.first(where: { $0.name == metric }) else {
        throw differenceNode.error("'\(metric)' is not a metric of the scenario (metrics: \(metrics.joined(separator: ", ")))")
      }
      let difference = try differenceNode.double()
      let largest = definition.kind == .conversion ? 1 : Metric.acceptedMeans.upperBound
      guard difference > 0, difference <= largest else {
        throw differenceNode.error(
          definition.kind == .conversion
            ? "must be greater than 0 and at most 1: a difference of rates, e.g. 0.01 for one percentage point"
            : "must be greater than 0 and at most 1e15: a difference of mean amounts per device")
      }
      settings.minimumDetectableDifferences[metric] = difference
    }
    if let successNode = object.optional("successMetrics") {
      var success: [String] = []
      for metricNode in try successNode.array() {
        let metric = try metricNode.string()
        guard metrics.contains(metric) else {
          throw metricNode.error("'\(metric)' is not a metric of the scenario (metrics: \(metrics.joined(separator: ", ")))")
        }
        guard settings.guardrails[metric] == nil else {
          throw metricNode.error(
            "'\(metric)' is a guardrail: a metric is either a success metric (it must improve) or a guardrail (it must not get worse); remove it from one of them")
        }
        guard !success.contains(metric) else { throw metricNode.error("'\(metric)' is listed twice") }
        success.append(metric)
      }
      if success.isEmpty, settings.guardrails.isEmpty, !metrics.isEmpty {
        throw successNode.error(
          "names no metric and the scenario has no guardrails, so nothing could decide a ship: name a success metric, e.g. [\"\(metrics[0])\"]")
      }
      settings.successMetrics = success
    }
    if let deteriorationNode = object.optional("deteriorationAlpha") {
      settings.deteriorationAlpha = try deteriorationNode.double()
      guard settings.deteriorationAlpha > 0, settings.deteriorationAlpha < 0.5 else {
        throw deteriorationNode.error("must lie between 0 and 0.5, e.g. 0.01")
      }
    }
    if let minimumNode = object.optional("minimumDevicesPerVariant") {
      settings.minimumDevicesPerVariant = try minimumNode.integer(in: ScenarioLimits.minimumDevicesPerVariant)
    }
    if let mixtureNode = object.optional("alwaysValidMixture") {
      let mixture = try mixtureNode.double()
      guard mixture >= 0.001, mixture <= 10 else {
        throw mixtureNode.error("must lie between 0.001 and 10: a relative lift such as 0.1 for 10%")
      }
      settings.alwaysValidMixture = mixture
    }
    if let engineNode = object.optional("engine") {
      let engine = try choice(engineNode, AnalysisEngine.self)
      settings.engines = engine == .bench ? [] : [engine]
    }
    if let settingsNode = object.optional("engineSettings") {
      let engines = try settingsNode.object(fields: AnalysisEngine.allCases.filter { !$0.settings.isEmpty }.map(\.rawValue))
      for engine in AnalysisEngine.allCases {
        guard let engineNode = engines.optional(engine.rawValue) else { continue }
        let values = try engineNode.object(fields: engine.settings.map(\.rawValue))
        for setting in engine.settings {
          guard let valueNode = values.optional(setting.rawValue) else { continue }
          settings.engineSettings[engine, default: [:]][setting] = try valueNode.double(in: setting.range)
        }
      }
    }
    if let intervalNode = object.optional("liftInterval") {
      settings.liftInterval = try choice(intervalNode, AnalysisSettings.LiftInterval.self)
    }
    if let mistakeNode = object.optional("neverEnrolledAsBaseline") {
      settings.neverEnrolledAsBaseline = try mistakeNode.bool()
    }
    if let effectNode = object.optional("minimumDetectableEffect") {
      settings.minimumDetectableEffect = try effectNode.double()
      guard ScenarioLimits.minimumDetectableEffect.contains(settings.minimumDetectableEffect) else {
        let range = ScenarioLimits.minimumDetectableEffect
        throw effectNode.error(
          "must lie between \(NumberText.plain(range.lowerBound)) and \(NumberText.plain(range.upperBound)): a relative lift such as 0.05 for 5%")
      }
    }
    if let powerNode = object.optional("power") {
      settings.power = try powerNode.double()
      guard settings.power > 0.5, settings.power < 1 else { throw powerNode.error("must lie between 0.5 and 1, e.g. 0.8") }
    }
    return settings
  }

  private func choice<Choice: RawRepresentable & CaseIterable>(_ node: JSONNode, _: Choice.Type) throws(ScenarioError) -> Choice
  where Choice.RawValue == String {
    let raw = try node.string()
    guard let value = Choice(rawValue: raw) else {
      throw node.error("must be one of \(Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
    }
    return value
  }

  private mutating func appVersion(
    _ node: JSONNode, isFirst: Bool, days: Int, naming: NamingPolicy
  ) throws(ScenarioError) -> AppVersion {
    let object = try node.object(fields: ScenarioFields.version)
    let version = try object.required("version").string()
    guard !version.isEmpty else { throw try object.required("version").error("must not be empty") }
    let releaseNode = try object.required("releaseDay")
    let releaseDay = try releaseNode.integer()
    if isFirst, releaseDay != 0 {
      throw releaseNode.error("must be 0 for the first version: every device starts on it")
    }
    var adoption = Adoption.immediate
    if let adoptionNode = object.optional("adoption") {
      adoption = try self.adoption(adoptionNode, days: days)
    } else if !isFirst {
      throw ScenarioError(
        path: "\(node.path).adoption",
        message: "is required after the first version, e.g. {\"meanDelayDays\": 7, \"neverUpgradeShare\": 0.1}")
    }
    let stabilizeOnLaunch = try object.optional("stabilizeOnLaunch").map { node throws(ScenarioError) in
      try node.integer(in: ScenarioLimits.stabilizeOnLaunch)
    }
    var experiments: [Experiment] = []
    for experimentNode in try object.optional("experiments")?.array(count: ScenarioLimits.experiments, of: "experiments") ?? [] {
      let experiment = try self.experiment(experimentNode, naming: naming)
      guard !experiments.contains(where: { $0.name == experiment.name }) else {
        throw ScenarioError(path: "\(experimentNode.path).name", message: "'\(experiment.name)' is defined twice in this version")
      }
      experiments.append(experiment)
    }
    var appVersion = AppVersion(
      version: version, releaseDay: releaseDay, adoption: adoption, stabilizeOnLaunch: stabilizeOnLaunch,
      experiments: experiments)
    guard releaseDay < days else {
      throw releaseNode.error("must be before the last day: the run lasts \(days) days")
    }
    if let rolloutNode = object.optional("rollout") {
      guard !isFirst else { throw rolloutNode.error("applies to updates: the first version is every device's install") }
      appVersion.rollout = try rollout(rolloutNode, releaseDay: releaseDay, days: days)
    }
    if let requiredNode = object.optional("requiredFromDay") {
      guard !isFirst else { throw requiredNode.error("applies to updates: every device runs the first version from day 0") }
      appVersion.requiredFromDay = try requiredNode.integer(in: releaseDay...(days - 1))
    }
    return appVersion
  }

  private mutating func experiment(_ node: JSONNode, naming: NamingPolicy) throws(ScenarioError) -> Experiment {
    let object = try node.object(fields: ScenarioFields.experiment)
    let name = try object.required("name").string()
    let keys = try object.required("keys").array(count: ScenarioLimits.keys, of: "keys").map { node throws(ScenarioError) in
      try node.string()
    }
    let variants = try object.required("variants").array(count: ScenarioLimits.variants, of: "variants").map {
      node throws(ScenarioError) in try variant(node)
    }
    let baseline = try object.optional("baseline")?.string()
    var range = TokenRange.all
    if let rangeNode = object.optional("tokenRange") {
      range = try tokenRange(rangeNode)
    }
    let experiment: Experiment
    do {
      experiment = try Experiment(name: name, keys: keys, variants: variants, baseline: baseline, activeTokenRange: range)
    } catch {
      throw ScenarioError(path: "\(node.path).\(error.field)", message: error.problem)
    }
    try requireOneType(experiment, at: node)
    for violation in experiment.namingViolations {
      let issue = ScenarioError(path: "\(node.path).\(fieldPath(of: violation, in: experiment))", message: "\(violation)")
      guard naming == .lenient else {
        throw ScenarioError(path: issue.path, message: issue.message + ", or set \"naming\": \"lenient\"")
      }
      warnings.append(issue)
    }
    return experiment
  }

  /// An app reads a key as one type: a key that is text in one variant and a
  /// number in another is a typo that would crash or mislead the app.
  private func requireOneType(_ experiment: Experiment, at node: JSONNode) throws(ScenarioError) {
    for key in experiment.keys {
      let first = experiment.variants[0]
      for (index, variant) in experiment.variants.enumerated().dropFirst() {
        guard let value = variant.assignments[key], let firstValue = first.assignments[key] else { continue }
        guard Self.kind(of: value) != Self.kind(of: firstValue) else { continue }
        throw ScenarioError(
          path: "\(node.path).variants[\(index)].assignments.\(key)",
          message: "is \(Self.kind(of: value)) where \(first.name) gives \(Self.kind(of: firstValue)): "
            + "give '\(key)' one type in every variant")
      }
    }
  }

  private static func kind(of value: AssignmentValue) -> String {
    if case .string = value { return "a string" }
    return "a number"
  }

  private func fieldPath(of violation: NamingViolation, in experiment: Experiment) -> String {
    switch violation.subject {
    case .experiment: return "name"
    case .key: return "keys[\(experiment.keys.firstIndex(of: violation.name)!)]"
    case .variant: return "variants[\(experiment.variantIndex(named: violation.name)!)].name"
    }
  }

  private func variant(_ node: JSONNode) throws(ScenarioError) -> Variant {
    let object = try node.object(fields: ScenarioFields.variant)
    let weightNode = object.optional("weight")
    let weight = try weightNode?.integer() ?? 1
    // A weight of 0 is how other platforms switch a variant off; in Lab the variant is deleted instead.
    if let weightNode, weight <= 0 {
      throw weightNode.error(
        "must be greater than 0: a plan stops showing a variant by deleting it from the version (docs/rules/DeletedVariant.md)")
    }
    if let weightNode, weight > ScenarioLimits.weight.upperBound {
      throw weightNode.error("must be at most \(ScenarioLimits.weight.upperBound): use smaller weights in the same proportions")
    }
    return Variant(
      name: try object.required("name").string(), weight: weight,
      assignments: try assignments(object.required("assignments")))
  }

  func assignments(_ node: JSONNode) throws(ScenarioError) -> [String: AssignmentValue] {
    var assignments: [String: AssignmentValue] = [:]
    for (key, child) in try node.members() {
      switch child.value {
      case .string(let string): assignments[key] = .string(string)
      case .integer, .number: assignments[key] = .number(try child.double())
      default: throw child.error("must be a string or a number, not \(child.value.typeName)")
      }
    }
    return assignments
  }

  func tokenRange(_ node: JSONNode) throws(ScenarioError) -> TokenRange {
    let bounds = try node.array()
    guard bounds.count == 2 else { throw node.error("must be [lower, upper], e.g. [0, 0.5]") }
    let lower = try bounds[0].double(), upper = try bounds[1].double()
    do {
      return try TokenRange(lower: lower, upper: upper)
    } catch {
      throw node.error("\(error)")
    }
  }
}
