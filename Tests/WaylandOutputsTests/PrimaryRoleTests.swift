import XCTest
@testable import WaylandOutputs

final class PrimaryRoleTests: XCTestCase {
    func output(_ name: String, x: Int32) -> Output { Output(id: UInt32(x + 2000), name: name, logicalFrame: Rect(x: x, y: 0, width: 0, height: 0)) }

    func test_theFirstInOrderStartsAsPrimaryAndKeepsTheRoleWhenAnOutputAppearsBeforeIt() {
        var role = PrimaryRole()
        let a = output("A", x: 0), b = output("B", x: 1000), left = output("L", x: -1000)
        XCTAssertEqual(role.update([b, a])?.name, "A")
        XCTAssertEqual(role.update([a, b, left])?.name, "A", "a new output does not take the role")
    }

    func test_whenThePrimaryLeavesTheNextTakesOverAndItsReturnRestoresIt() {
        var role = PrimaryRole()
        let a = output("A", x: 0), b = output("B", x: 1000), c = output("C", x: 2000)
        XCTAssertEqual(role.update([a, b, c])?.name, "A")
        XCTAssertEqual(role.update([b, c])?.name, "B")
        XCTAssertEqual(role.displaced, "A")
        XCTAssertEqual(role.update([b, c, output("D", x: 3000)])?.name, "B", "another newcomer changes nothing")
        // A returns, as a new global with the same name and perhaps elsewhere.
        XCTAssertEqual(role.update([b, c, output("A", x: 5000)])?.name, "A")
        XCTAssertNil(role.displaced)
    }

    func test_aRequestedPrimaryWinsWheneverItIsConnected() {
        var role = PrimaryRole(requested: "B")
        let a = output("A", x: 0), b = output("B", x: 1000)
        XCTAssertEqual(role.update([a, b])?.name, "B")
        XCTAssertEqual(role.update([a])?.name, "A")
        XCTAssertEqual(role.update([a, b])?.name, "B")
    }

    func test_noOutputsNoPrimaryAndTheFirstToComeTakesIt() {
        var role = PrimaryRole()
        XCTAssertNil(role.update([]))
        XCTAssertEqual(role.update([output("X", x: 0)])?.name, "X")
        XCTAssertNil(role.update([]))
        XCTAssertEqual(role.displaced, "X")
        XCTAssertEqual(role.update([output("Y", x: 0)])?.name, "Y")
        XCTAssertEqual(role.update([output("Y", x: 0), output("X", x: 10)])?.name, "X")
    }
}
