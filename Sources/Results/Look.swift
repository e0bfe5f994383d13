/// A test repeated at the end of one day on the devices counted so far.
public struct Look: Hashable, Sendable {
  public var day: Int
  /// The ordinary p-value, valid for one look only.
  public var pValue: Double?
  /// The mSPRT p-value, valid however often one looks.
  public var alwaysValidPValue: Double?
  /// The p-value this look must reach under O'Brien–Fleming and Pocock alpha
  /// spending, with the information fraction of the devices counted by then.
  public var obrienFlemingAlpha: Double?
  public var pocockAlpha: Double?

  public init(
    day: Int, pValue: Double?, alwaysValidPValue: Double?, obrienFlemingAlpha: Double? = nil, pocockAlpha: Double? = nil
  ) {
    self.day = day
    self.pValue = pValue
    self.alwaysValidPValue = alwaysValidPValue
    self.obrienFlemingAlpha = obrienFlemingAlpha
    self.pocockAlpha = pocockAlpha
  }

  /// Whether the ordinary p-value reaches `threshold` (an alpha-spending look's).
  public func crosses(_ threshold: Double?) -> Bool {
    guard let pValue, let threshold else { return false }
    return pValue <= threshold
  }
}
