public struct MetricCalibration: Hashable, Sendable {
  public var metric: String
  /// How often each variant was declared the winner, in variant order.
  public var winnerRates: [(variant: String, rate: Double)]
  /// How often no winner was declared.
  public var noWinnerRate: Double
  /// How often the verdict was "not trustworthy".
  public var notTrustworthyRate: Double
  /// Verdicts that named the true winner, or no winner where there is none.
  public var correct: Share
  /// Verdicts that named another winner, or no winner where there is one.
  public var wrong: Share
  /// "Not trustworthy" verdicts: the analysis declined to decide, which is
  /// neither right nor wrong, so it is counted apart.
  public var abstained: Share
  public var trueWinner: String?
  /// How often each recommendation came, judged against the truth; `nil`
  /// where the truth is unknown.
  public var decisions: DecisionCalibration?
  public var comparisons: [ComparisonCalibration]

  public init(
    metric: String, winnerRates: [(variant: String, rate: Double)], noWinnerRate: Double, notTrustworthyRate: Double,
    correct: Share, wrong: Share, abstained: Share, trueWinner: String?, decisions: DecisionCalibration?,
    comparisons: [ComparisonCalibration]
  ) {
    self.metric = metric
    self.winnerRates = winnerRates
    self.noWinnerRate = noWinnerRate
    self.notTrustworthyRate = notTrustworthyRate
    self.correct = correct
    self.wrong = wrong
    self.abstained = abstained
    self.trueWinner = trueWinner
    self.decisions = decisions
    self.comparisons = comparisons
  }

  public static func == (lhs: MetricCalibration, rhs: MetricCalibration) -> Bool {
    lhs.metric == rhs.metric && lhs.winnerRates.map(\.variant) == rhs.winnerRates.map(\.variant)
      && lhs.winnerRates.map(\.rate) == rhs.winnerRates.map(\.rate) && lhs.noWinnerRate == rhs.noWinnerRate
      && lhs.notTrustworthyRate == rhs.notTrustworthyRate && lhs.correct == rhs.correct && lhs.wrong == rhs.wrong
      && lhs.abstained == rhs.abstained && lhs.trueWinner == rhs.trueWinner && lhs.decisions == rhs.decisions
      && lhs.comparisons == rhs.comparisons
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(metric)
    hasher.combine(correct)
  }
}

/// What the recommendations on one metric did over replications, against
/// the truth. The first five partition the replications; `wrongSign` counts
/// those in which some variant was decided significantly (ship, or do not
/// ship as worse) in the direction opposite to its true lift.
public struct DecisionCalibration: Hashable, Sendable {
  /// Shipped a variant whose true lift is above 0.
  public var rightShip: Share
  /// Shipped a variant that is not truly better than the baseline.
  public var wrongShip: Share
  /// Kept the baseline: every variant was decided "do not ship".
  public var keepBaseline: Share
  /// Kept running: some variant was inconclusive.
  public var inconclusive: Share
  /// Withheld: "do not trust".
  public var withheld: Share
  public var wrongSign: Share

  public init(
    rightShip: Share, wrongShip: Share, keepBaseline: Share, inconclusive: Share, withheld: Share, wrongSign: Share
  ) {
    self.rightShip = rightShip
    self.wrongShip = wrongShip
    self.keepBaseline = keepBaseline
    self.inconclusive = inconclusive
    self.withheld = withheld
    self.wrongSign = wrongSign
  }
}
