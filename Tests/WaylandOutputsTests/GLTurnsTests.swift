import Glibc
import XCTest
@testable import WaylandOutputs

/// The order in which windows take turns at GL where the driver needs it (Mesa before
/// 23.1.6): earliest deadline first, no barging.
final class GLTurnsTests: XCTestCase {
    func test_theWaiterDueFirstGoesNextAndEqualDeadlinesGoInTheOrderTheyCame() {
        var turns = GLTurns()
        let sixty = turns.arrive(deadline: 16_000)
        XCTAssertTrue(turns.mayEnter(sixty), "alone, at once")
        turns.enter(sixty)
        // While it draws, a 144 Hz frame and two more 60 Hz ones come.
        let late = turns.arrive(deadline: 33_000), soon = turns.arrive(deadline: 7_000), alsoLate = turns.arrive(deadline: 33_000)
        XCTAssertFalse(turns.mayEnter(soon), "the turn is taken")
        XCTAssertEqual(turns.leave(), soon, "the 144 Hz frame is woken")
        // The 60 Hz frame's second section comes back at once: the 144 Hz frame still goes first.
        let second = turns.arrive(deadline: 16_000)
        XCTAssertFalse(turns.mayEnter(second))
        XCTAssertTrue(turns.mayEnter(soon))
        turns.enter(soon)
        XCTAssertEqual(turns.leave(), second)
        XCTAssertTrue(turns.mayEnter(second))
        XCTAssertFalse(turns.mayEnter(late))
        turns.enter(second)
        XCTAssertEqual(turns.leave(), late)
        XCTAssertTrue(turns.mayEnter(late), "equal deadlines: first come")
        XCTAssertFalse(turns.mayEnter(alsoLate))
        turns.enter(late)
        XCTAssertEqual(turns.leave(), alsoLate)
        turns.enter(alsoLate)
        XCTAssertNil(turns.leave(), "nobody waits")
    }

    /// Threads taking turns through the lock: never two inside at once, every turn taken,
    /// also where more threads wait than it has conditions.
    func test_theLockLetsOneThreadInAtATime() {
        for conditions in [64, 2] { takeTurns(DeadlineLock(conditions: conditions)) }
    }

    private func takeTurns(_ lock: DeadlineLock) {
        let inside = Locked(0), most = Locked(0)
        let threads = 6, rounds = 300
        Threads.run(threads: threads) { index in
            for round in 0..<rounds {
                lock.withTurn(deadline: UInt64((round * 7 + index * 13) % 50)) {
                    let now = inside.withLock { value -> Int in
                        value += 1
                        return value
                    }
                    most.withLock { $0 = max($0, now) }
                    inside.withLock { $0 -= 1 }
                }
            }
        }
        XCTAssertEqual(most.withLock { $0 }, 1)
        XCTAssertEqual(lock.sections, UInt64(threads * rounds))
    }
}

/// Runs `body` on `threads` pthreads at once and waits for them all.
private enum Threads {
    static func run(threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        final class Box: @unchecked Sendable {
            let body: @Sendable (Int) -> Void
            let index: Int
            init(_ body: @escaping @Sendable (Int) -> Void, _ index: Int) { (self.body, self.index) = (body, index) }
        }
        var handles: [pthread_t] = []
        for index in 0..<threads {
            var handle = pthread_t()
            let box = Unmanaged.passRetained(Box(body, index)).toOpaque()
            pthread_create(&handle, nil, { raw in
                let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
                box.body(box.index)
                return nil
            }, box)
            handles.append(handle)
        }
        for handle in handles { pthread_join(handle, nil) }
    }
}
