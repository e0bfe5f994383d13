import ScenarioFormat
import Testing

/// One number grammar for every option that takes a number (issue 62): the
/// decimals a person types, never a hexadecimal float, `inf` or `nan`.
@Suite struct NumberTextTests {
  @Test func decimalsAreRead() {
    #expect(NumberText.decimal("0.125") == 0.125)
    #expect(NumberText.decimal("+2") == 2)
    #expect(NumberText.decimal("-.5") == -0.5)
    #expect(NumberText.decimal("1.") == 1)
    #expect(NumberText.decimal("1e-3") == 0.001)
    #expect(NumberText.decimal("2.5E+2") == 250)
    #expect(NumberText.decimal("0.99"[...]) == 0.99)
  }

  @Test func whatDoubleAlsoReadsIsRefused() {
    for text in ["0x1p-3", "0X10", "inf", "-infinity", "nan", "1e400", "", ".", "e5", "1e", "1e+", " 1", "1 ", "1,5", "٣"] {
      #expect(NumberText.decimal(text) == nil, "\(text)")
    }
  }
}
