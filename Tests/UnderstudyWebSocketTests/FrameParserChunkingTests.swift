import XCTest
import UnderstudyWebSocket

/// The parser's answer must not depend on how the bytes were split: two thousand seeded random
/// streams (valid frames of every kind, then some of them corrupted at a random byte) give the
/// same events and the same violation whole, in three-byte chunks, one byte at a time (streams
/// under 2 KiB) and in random chunks. (64-bit lengths are FrameParserRuleTests' and FrameParserTests'.)
final class FrameParserChunkingTests: XCTestCase {
    /// SplitMix64: a small seeded generator, so a failing stream can be found again by its seed.
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private func randomStream(_ random: inout SeededGenerator) -> [UInt8] {
        var stream: [UInt8] = []
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let size = [0, 1, 5, 125, 126, 300, 1000].randomElement(using: &random)!
            let payload = (0..<size).map { _ in UInt8(Int.random(in: 0x20...0x7E, using: &random)) }
            switch Int.random(in: 0..<5, using: &random) {
            case 0: stream += clientFrame(.ping, Array(payload.prefix(125)))
            case 1: stream += clientFrame(.pong, Array(payload.prefix(20)))
            case 2:
                let half = payload.count / 2
                stream += clientFrame(.text, Array(payload[..<half]), fin: false)
                stream += clientFrame(.continuation, Array(payload[half...]))
            default: stream += clientFrame(.binary, payload)
            }
        }
        if Bool.random(using: &random) {
            // Corrupt one byte, often in a header (the first bytes), sometimes anywhere.
            let limit = Bool.random(using: &random) ? min(stream.count, 16) : stream.count
            stream[Int.random(in: 0..<limit, using: &random)] = UInt8.random(in: 0...255, using: &random)
        }
        return stream
    }

    private func parseInRandomChunks(_ bytes: [UInt8], _ random: inout SeededGenerator) -> ParseOutcome {
        var parser = WebSocketFrameParser()
        var outcome = ParseOutcome()
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + Int.random(in: 1...200, using: &random))
            parser.append(bytes[index..<end])
            index = end
            do {
                while let event = try parser.next() { outcome.events.append(event) }
            } catch {
                outcome.error = error
                break
            }
        }
        return outcome
    }

    func testTheSplitDoesNotChangeTheOutcome() {
        var failures = 0
        for seed in UInt64(1)...2000 {
            var random = SeededGenerator(state: seed)
            let stream = randomStream(&random)
            let whole = parse(stream)
            // One byte at a time only for the shorter streams: a debug build takes ~1 µs a byte.
            let feeds: [Feed] = stream.count < 2048 ? [.chunksOfThree, .oneByteAtATime] : [.chunksOfThree]
            for feed in feeds where parse(stream, feed: feed) != whole {
                XCTFail("seed \(seed): \(feed) differs from whole")
                failures += 1
            }
            if parseInRandomChunks(stream, &random) != whole {
                XCTFail("seed \(seed): random chunks differ from whole")
                failures += 1
            }
            if failures > 5 { return }
        }
    }
}
