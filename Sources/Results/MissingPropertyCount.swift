/// A sum metric of an analysed export whose events did not all carry its
/// property (absent, null or empty, as a coupon order carries no revenue):
/// each such event still counts and adds 0, as SQL's `SUM` does, and the
/// report says how many there were so that a misspelt property shows.
public struct MissingPropertyCount: Hashable, Sendable {
  public var metric: String
  public var event: String
  public var property: String
  /// The metric's events counted.
  public var events: Int
  /// Of those, the events without a value of the property.
  public var withoutProperty: Int

  public init(metric: String, event: String, property: String, events: Int, withoutProperty: Int) {
    self.metric = metric
    self.event = event
    self.property = property
    self.events = events
    self.withoutProperty = withoutProperty
  }
}
