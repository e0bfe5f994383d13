import _CGSL

/// A failure reported by GNU GSL through a status code.
///
/// GSL's default error handler aborts the process; Statistics turns it off
/// before its first call into GSL and reads the status codes instead, so that
/// bad input becomes an error the caller can report.
public struct GSLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// GSL's status code, e.g. `GSL_EDOM` for an argument outside the domain.
  public let status: Int32
  /// What was being computed.
  public let function: String

  public var description: String {
    "\(function): \(String(cString: gsl_strerror(status))) (GSL status \(status))"
  }
}

/// Calls into GSL with its aborting error handler off.
enum GSL {
  /// Turns the handler off once, the first time any call needs it; Swift runs
  /// a static initializer exactly once, whatever the thread.
  static let errorHandlerOff: Void = {
    _ = gsl_set_error_handler_off()
  }()

  /// Runs a GSL function that reports through a status code and a result.
  static func evaluate(_ function: String, _ body: (UnsafeMutablePointer<gsl_sf_result>) -> Int32) throws(GSLError) -> Double {
    _ = errorHandlerOff
    var result = gsl_sf_result()
    let status = body(&result)
    guard status == GSL_SUCCESS else { throw GSLError(status: status, function: function) }
    return result.val
  }

  /// Runs a GSL function that has no status code (the cumulative distribution
  /// functions), with the handler off so that a domain error returns NaN.
  static func value<Value>(_ body: () -> Value) -> Value {
    _ = errorHandlerOff
    return body()
  }
}
