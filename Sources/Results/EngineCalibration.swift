/// How often each analysis engine's decision was right over the same
/// replications of one plan (`bench compare --engines`): per engine and
/// experiment, the shares of the decision's outcomes, judged against the
/// truth as the bench's own decision is (`DecisionRates`).
public struct EngineCalibration: Hashable, Sendable {
  /// One engine's decisions.
  public struct Engine: Hashable, Sendable {
    /// The name `--engines` takes, e.g. "gbstats-bayesian".
    public var name: String
    /// Its name on a report, e.g. "GrowthBook Bayesian".
    public var title: String
    /// What it decided per experiment, in the plan's order.
    public var experiments: [Experiment]

    public init(name: String, title: String, experiments: [Experiment]) {
      self.name = name
      self.title = title
      self.experiments = experiments
    }
  }

  /// What one engine decided for one experiment.
  public struct Experiment: Hashable, Sendable {
    public var name: String
    /// Read once, at the run's end.
    public var rates: DecisionRates
    /// Read at the end of every day and stopped at the first call, when the plan asks for daily looks.
    public var dailyLooks: DailyLooks?

    public init(name: String, rates: DecisionRates, dailyLooks: DailyLooks? = nil) {
      self.name = name
      self.rates = rates
      self.dailyLooks = dailyLooks
    }
  }

  /// A team that reads the page every day and acts on the first call (a ship or a roll-back).
  public struct DailyLooks: Hashable, Sendable {
    /// The outcomes of acting on the first call; "keep running" where no day made one.
    public var rates: DecisionRates
    /// The replications in which some day made a call.
    public var called: Int
    /// The day of the first call (0 is the plan's first day) over those replications.
    public var firstCallDay: Quartiles?

    public init(rates: DecisionRates, called: Int, firstCallDay: Quartiles?) {
      self.rates = rates
      self.called = called
      self.firstCallDay = firstCallDay
    }
  }

  /// The lower quartile, median and upper quartile of whole numbers (each an element of them).
  public struct Quartiles: Hashable, Sendable {
    public var lower: Int
    public var median: Int
    public var upper: Int

    /// The quartiles of `values` by the nearest rank (the ⌈q·n⌉-th smallest); `nil` for none.
    public init?(_ values: [Int]) {
      guard !values.isEmpty else { return nil }
      let sorted = values.sorted()
      func rank(_ q: Double) -> Int { sorted[max(Int((q * Double(sorted.count)).rounded(.up)), 1) - 1] }
      lower = rank(0.25)
      median = rank(0.5)
      upper = rank(0.75)
    }
  }

  public var replications: Int
  public var engines: [Engine]

  public init(replications: Int, engines: [Engine]) {
    self.replications = replications
    self.engines = engines
  }
}
