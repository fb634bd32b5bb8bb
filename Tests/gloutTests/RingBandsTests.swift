import XCTest
@testable import glout

/// The bands rings.vert draws the content view's rings on: every pixel rings.frag covers
/// lies inside one, with the pixel they spare either way, and together they are well
/// under the disc the rings were drawn on before.
final class RingBandsTests: XCTestCase {
    /// rings.frag's coverage at `distance` pixels from the centre, in the shader's floats.
    func cover(distance: Double, time: Float, radius: Double) -> Float {
        let r = Float(distance) / Float(max(radius, 1))
        guard r < 1 else { return 0 }
        let ring = DraftFrame.smoothstep(0.35, 0.5, DraftFrame.wave(r * 1.44 - time * 0.48))
        return ring * 0.45 * DraftFrame.smoothstep(0.97, 0.13, r)
    }

    func test_everyPixelTheRingsCoverIsInsideABandWithAPixelToSpare() {
        var times: [Float] = [0, 0.01, 0.4, 1, 2.0833, 3, 59.99, 1000.71, 3599.93, 3599.999]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 { times.append(Float.random(in: 0..<3600, using: &generator)) }
        for radius in [0.4, 1, 3.7, 60, 195, 540.5] {
            for time in times {
                let bands = RingBands(time: time, radius: radius)
                var covered = 0
                for step in 0...Int(radius * 50) {
                    let distance = Double(step) / 50
                    guard cover(distance: distance, time: time, radius: radius) > 0 else { continue }
                    covered += 1
                    let inside = [bands.first, bands.second].contains { (band: RingBands.Band) -> Bool in
                        let (from, to) = (band.inner + 1 - 1e-6, band.outer - 1 + 1e-6)
                        return distance >= from && distance <= to
                    }
                    XCTAssertTrue(inside, "radius \(radius), time \(time): \(distance) px is covered outside \(bands)")
                    if !inside { return }
                }
                // A band holds something only where the rings cover something near it.
                for band in [bands.first, bands.second] where !band.isEmpty {
                    XCTAssertGreaterThan(band.outer - band.inner, 2, "radius \(radius), time \(time): \(band)")
                }
                if radius >= 60 { XCTAssertGreaterThan(covered, 0, "radius \(radius), time \(time): no ring at all") }
            }
        }
    }

    func test_theBandsTogetherAreUnderHalfTheDisc() {
        let radius = 195.0
        var fractions: [Double] = []
        for i in 0..<300 {
            let bands = RingBands(time: Float(i) * 0.01, radius: radius)
            var area = 0.0
            for band in [bands.first, bands.second] where !band.isEmpty {
                let inner = max(band.inner, 0)
                area += band.outer * band.outer - inner * inner
            }
            fractions.append(area / (0.97 * radius * 0.97 * radius))
        }
        let mean = fractions.reduce(0, +) / Double(fractions.count)
        XCTAssertLessThan(mean, 0.5, "the bands are \(mean) of the disc on average")
        XCTAssertLessThan(fractions.max()!, 0.65)
    }

    func test_theBandsAreWhereTheWaveIsWholeAndOneBeyondTheFadeIsEmpty() {
        // At t = 0 the first band is centred on r = 0 and the second on r = 1 / 1.44.
        let bands = RingBands(time: 0, radius: 100)
        XCTAssertEqual(bands.first.inner, -1, accuracy: 1e-9)
        XCTAssertEqual(bands.first.outer, 0.2 / 1.44 * 100 + 1, accuracy: 1e-9)
        XCTAssertEqual(bands.second.inner, 0.8 / 1.44 * 100 - 1, accuracy: 1e-9)
        XCTAssertEqual(bands.second.outer, 1.2 / 1.44 * 100 + 1, accuracy: 1e-9)
        // When x = 0 is at r = 0.7 / 1.44, the next whole x starts past 0.97 of the radius.
        let later = RingBands(time: Float(0.7 / 0.48), radius: 100)
        XCTAssertEqual(later.first.inner, 0.5 / 1.44 * 100 - 1, accuracy: 1e-4)
        XCTAssertEqual(later.first.outer, 0.9 / 1.44 * 100 + 1, accuracy: 1e-4)
        XCTAssertTrue(later.second.isEmpty, "\(later.second)")
    }
}
