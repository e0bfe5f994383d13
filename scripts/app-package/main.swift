// An app's use of the products it links, built by scripts/check-app-package.sh against this
// project as a versioned dependency. Each line checks what the app relies on.
import Bucketing
import Foundation
import Enrollment
import Lab
import LabTestKit

func check(_ condition: Bool, _ what: String) {
  guard condition else {
    print("app package: \(what) does not hold")
    exit(1)
  }
}

// Lab: a local experiment decided on a device from LabTestKit, kept at the next launch.
let theme = try Experiment(
  name: "Theme", keys: ["color"],
  variants: [
    Variant(name: "Blue", weight: 1, assignments: ["color": .string("blue")]),
    Variant(name: "Red", weight: 1, assignments: ["color": .string("red")]),
  ],
  activeTokenRange: try TokenRange(lower: 0, upper: 1))
var device = try Device(seed: 7)
let first = try device.launch([theme]).activeAssignments["color"]
let second = try device.launch([theme]).activeAssignments["color"]
check(first != nil && first == second, "a decided variant persists")

// Bucketing: Optimizely's MurmurHash3 and GrowthBook's FNV-1a, at their published values.
check(MurmurHash3.x86_32("", seed: 0) == 0, "MurmurHash3 of the empty string")
check(FNV1a.hash32("a") == 0xE40C_292C, "FNV-1a of 'a'")

// Enrollment and LabTestKit: the wrapper a unit test makes runs in its test mode, with nothing enrolled yet.
let manager = ExperimentsManager.forUnitTests([])
check(manager.isTestMode && manager.enrollments.isEmpty, "the unit tests' manager")
print("app package: Lab, Bucketing, Enrollment and LabTestKit build and work as a versioned dependency")
