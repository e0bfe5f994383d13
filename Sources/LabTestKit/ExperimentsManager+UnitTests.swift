// SPDX-License-Identifier: Apache-2.0

import Enrollment

extension ExperimentsManager {
  /// A manager for unit tests: every experiment gives its original variation
  /// and nothing is allocated, enrolled or recorded.
  public static func forUnitTests(_ experiments: [WrappedExperiment]) -> ExperimentsManager {
    ExperimentsManager(experiments: experiments, isTestMode: true)
  }
}
