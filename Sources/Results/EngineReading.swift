/// What a platform's results page shows for one experiment, beside the
/// bench's own decision, when the analysis names an engine
/// (`analysis.engine`, `--engine`): the page's call and, per variation and
/// metric, its mark with the figure the mark rests on.
public struct EngineReading: Hashable, Sendable {
  /// The engine's name, as `--engine` takes it.
  public var engine: String
  /// Its name on a report.
  public var title: String
  public var call: EngineCall
  public var marks: [Mark]
  /// How the page marks a metric and decides, in a sentence.
  public var rule: String

  /// A variation's mark on one metric, in the page's own word.
  public struct Mark: Hashable, Sendable {
    public var variant: String
    public var metric: String
    /// "won", "lost", "draw" or "none" on GrowthBook's page; "winner", "loser" or "inconclusive" on Optimizely's;
    /// "better", "worse", "non-inferior", "inferior" or "not significant" on Confidence's; "positive",
    /// "negative", "not significant" or "none" on Eppo's.
    public var status: String
    /// What the figure is: "chance to win", "p-value", "sequential p-value", "statistical significance",
    /// "adjusted lower bound of the lift" or "lift".
    public var figureName: String
    /// `nil` where the page shows none (too little data, a baseline of 0).
    public var figure: Double?

    public init(variant: String, metric: String, status: String, figureName: String, figure: Double?) {
      self.variant = variant
      self.metric = metric
      self.status = status
      self.figureName = figureName
      self.figure = figure
    }
  }

  public init(engine: String, title: String, call: EngineCall, marks: [Mark], rule: String) {
    self.engine = engine
    self.title = title
    self.call = call
    self.marks = marks
    self.rule = rule
  }
}
