import Foundation
import KeyframeEngine
import KeyframeModel
import KeyframeRaster

/// Frames already drawn and encoded in one run, found again by what they show: a frame whose layers sample to poses
/// equal to an earlier frame's (a held pose, a loop coming round) gets that frame's PNG bytes and contact-sheet
/// thumbnail without being drawn or encoded again.
///
/// A frame is a function of its poses and of what one run keeps fixed (framing, background, atlases, PNG settings),
/// so reused bytes are the bytes drawing and encoding the frame would give, whichever worker drew it. Poses are
/// compared whole — every item, mesh vertex, mask and filter group; the hash only finds candidates. Nothing is copied
/// per frame but the poses, so a run whose frames never repeat pays about nothing for it. Safe to share between
/// workers: a worker that meets a frame another worker is drawing waits for its bytes instead of drawing it too.
/// Frames are forgotten oldest first beyond ``byteLimit``.
///
/// ```swift
/// switch cache.look(up: layers) {
/// case .drawn(let frame): write(frame.png)
/// case .yours(let claim): cache.fulfil(claim, with: RenderedFrameCache.Frame(png: draw(), thumbnail: nil))
/// }
/// ```
final class RenderedFrameCache: @unchecked Sendable {
    /// One layer of a frame: the scene it was sampled from and its pose.
    struct Layer: Equatable, Sendable {
        var scene: Int
        var pose: Pose
    }

    /// What a frame left behind.
    struct Frame: Sendable {
        var png: [UInt8]
        var thumbnail: Bitmap?
    }

    /// A frame the cache has not seen, now the caller's to draw: ``fulfil(_:with:)`` or ``abandon(_:)`` it.
    final class Claim: @unchecked Sendable {
        fileprivate let layers: [Layer]
        fileprivate let hash: Int
        fileprivate var frame: Frame?
        fileprivate var abandoned = false

        fileprivate init(layers: [Layer], hash: Int) {
            self.layers = layers
            self.hash = hash
        }
    }

    /// What a look-up finds.
    enum Found {
        /// A frame with equal poses, drawn before.
        case drawn(Frame)
        /// Nothing: the caller draws the frame.
        case yours(Claim)
    }

    /// The most bytes (PNG bytes, thumbnails and an estimate of the poses) kept.
    let byteLimit: Int

    private let condition = NSCondition()
    private var byHash: [Int: [Claim]] = [:]
    private var finished: OldestFirst<Claim>

    init(byteLimit: Int = 256 << 20) {
        self.byteLimit = max(0, byteLimit)
        finished = OldestFirst(byteLimit: byteLimit)
    }

    /// The frame drawn for poses equal to `layers` (waiting while another worker draws it), or a claim on drawing it.
    func look(up layers: [Layer]) -> Found {
        let hash = RenderedFrameCache.hash(layers)
        condition.lock()
        defer { condition.unlock() }
        lookup: while true {
            for entry in byHash[hash] ?? [] where !entry.abandoned && entry.layers == layers {
                if let frame = entry.frame { return .drawn(frame) }
                condition.wait()  // another worker is drawing this frame
                continue lookup
            }
            let claim = Claim(layers: layers, hash: hash)
            byHash[hash, default: []].append(claim)
            return .yours(claim)
        }
    }

    /// Records what the claimed frame gave, for the frames with equal poses to come.
    func fulfil(_ claim: Claim, with frame: Frame) {
        let poseBytes = claim.layers.reduce(0) { total, layer in
            total + layer.pose.items.reduce(0) { $0 + 160 + 16 * ($1.mesh?.positions.count ?? 0) }
        }
        condition.lock()
        defer { condition.unlock() }
        claim.frame = frame
        let bytes = frame.png.count + (frame.thumbnail?.pixels.count ?? 0) + poseBytes
        for forgotten in finished.append(claim, bytes: bytes) { remove(forgotten) }
        condition.broadcast()
    }

    /// Gives up a claim (the frame could not be drawn or written): workers waiting on it draw the frame themselves.
    func abandon(_ claim: Claim) {
        condition.lock()
        defer { condition.unlock() }
        claim.abandoned = true
        remove(claim)
        condition.broadcast()
    }

    /// Removes `claim` from the look-up table (under the lock).
    private func remove(_ claim: Claim) {
        guard var list = byHash[claim.hash] else { return }
        list.removeAll { $0 === claim }
        byHash[claim.hash] = list.isEmpty ? nil : list
    }

    /// A hash of what the layers draw: each item's sprite, transform and colour, and its mesh's size (equality is
    /// always decided on the whole poses).
    static func hash(_ layers: [Layer]) -> Int {
        var hasher = Hasher()
        hasher.combine(layers.count)
        for layer in layers {
            hasher.combine(layer.scene)
            hasher.combine(layer.pose.items.count)
            hasher.combine(layer.pose.masks.count)
            hasher.combine(layer.pose.filterGroups.count)
            for item in layer.pose.items {
                hasher.combine(item.sprite)
                hasher.combine(item.transform)
                hasher.combine(item.color)
                if let mesh = item.mesh {
                    hasher.combine(mesh.positions.count)
                    if let first = mesh.positions.first {
                        hasher.combine(first.x)
                        hasher.combine(first.y)
                    }
                }
            }
        }
        return hasher.finalize()
    }
}
