import _CGSL

/// Adaptive numerical integration with GSL's QAGS (Gauss–Kronrod 21-point
/// rules with extrapolation), for the Bayesian summaries.
enum Integration {
  /// ∫ₐᵇ f(x) dx to a relative error of 1e-12 where GSL reaches it.
  ///
  /// - Throws: `GSLError` when GSL cannot reach the tolerance (for example, a
  ///   round-off error); the caller reports the value as not computable.
  static func integrate(_ lower: Double, _ upper: Double, _ integrand: (Double) -> Double) throws(GSLError) -> Double {
    _ = GSL.errorHandlerOff
    guard upper > lower else { return 0 }
    let limit = 1000
    guard let workspace = gsl_integration_workspace_alloc(limit) else {
      throw GSLError(status: Int32(GSL_ENOMEM), function: "integration workspace")
    }
    defer { gsl_integration_workspace_free(workspace) }
    return try withoutActuallyEscaping(integrand) { integrand throws(GSLError) -> Double in
      var box = integrand
      return try withUnsafeMutablePointer(to: &box) { pointer throws(GSLError) -> Double in
        var function = gsl_function(
          function: { x, parameters in
            parameters!.assumingMemoryBound(to: ((Double) -> Double).self).pointee(x)
          },
          params: UnsafeMutableRawPointer(pointer))
        var result = 0.0, error = 0.0
        let status = gsl_integration_qags(&function, lower, upper, 0, 1e-12, limit, workspace, &result, &error)
        guard status == GSL_SUCCESS || (status == Int32(GSL_EROUND) && error <= 1e-10 * max(abs(result), 1e-300)) else {
          throw GSLError(status: status, function: "integration on [\(lower), \(upper)]")
        }
        return result
      }
    }
  }
}
