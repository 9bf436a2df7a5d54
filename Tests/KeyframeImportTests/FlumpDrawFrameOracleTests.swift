import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel
import KeyframeTestSupport
import XCTest

// Every frame of every movie of every Flump sample (the XML one included, which has no third-party golden) against
// an oracle that applies the rules of Flump's ActionScript runtime to the raw library (read by FlumpRawLibrary, not
// by the importer), written from formats.md §4.2 and the behaviour of `Layer.drawFrame`:
// - the current keyframe is the last one whose index ≤ frame; past the layer's last keyframe's end nothing shows;
// - on a tweened keyframe that is not the layer's last, p = (frame − index)/duration, eased to p − ease·p·(1 − p),
//   and x, y, scaleX, scaleY, skewX, skewY, alpha go linearly towards the next keyframe; otherwise the keyframe's
//   own values; pivot and visible always come from the current keyframe;
// - the display matrix is scale, then skew, then the translation that puts the pivot on (x, y); a texture's pixel
//   `pivot` is the one placed (2013 schema: no pivots, the texture drawn at −origin);
// - a nested movie starts at 0 when its layer swaps it in and advances one frame per frame, looping; consecutive
//   keyframes naming the same movie keep it.
// The comparison is exact up to floating-point noise (1e-9), at integer frames.

final class FlumpDrawFrameOracleTests: XCTestCase {
    func testEveryFrameFollowsDrawFrame() throws {
        var checked = 0
        for folder in try FlumpCorpusTests.samples() + [TestPaths.packageRoot.appendingPathComponent("Samples/flump-hopbot")] {
            let raw = try FlumpRawLibrary(url: try FlumpCorpusTests.libraryFile(in: folder))
            let document = try Importer.importDocument(at: folder)
            let sampler = PoseSampler(document: document)
            let group = try XCTUnwrap(raw.textureGroups.first { $0.scaleFactor == 1 } ?? raw.textureGroups.first)
            let textures = Dictionary(group.textures.map { ($0.symbol, $0) }, uniquingKeysWith: { a, _ in a })
            let oracle = Oracle(raw: raw, textures: textures, scale: group.scaleFactor)
            for movie in raw.movies {
                for frame in 0..<movie.frames {
                    let pose = sampler.sample(composition: movie.id, frame: Frames(Double(frame)))
                    var expected: [(sprite: String, matrix: Matrix2D, alpha: Double)] = []
                    oracle.draw(movie: movie, frame: frame, parent: .identity, alpha: 1, into: &expected)
                    let label = "\(folder.lastPathComponent) \(movie.id) frame \(frame)"
                    XCTAssertEqual(pose.items.map(\.sprite), expected.map(\.sprite), label)
                    for (item, want) in zip(pose.items, expected) {
                        let m = item.transform, e = want.matrix
                        for (a, b) in [(m.a, e.a), (m.b, e.b), (m.c, e.c), (m.d, e.d), (m.tx, e.tx), (m.ty, e.ty)] {
                            XCTAssertEqual(a, b, accuracy: 1e-9, "\(label) \(item.sprite)")
                        }
                        XCTAssertEqual(item.color.alphaMultiplier, want.alpha, accuracy: 1e-12, "\(label) \(item.sprite)")
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 500)
    }

    /// drawFrame's rules over the raw library.
    private struct Oracle {
        let raw: FlumpRawLibrary
        let textures: [String: FlumpRawLibrary.Texture]
        let scale: Double

        func draw(movie: FlumpRawLibrary.Movie, frame: Int, parent: Matrix2D, alpha: Double,
                  into items: inout [(sprite: String, matrix: Matrix2D, alpha: Double)]) {
            for layer in movie.playedLayers {
                guard frame < layer.frames, let index = layer.keyframes.lastIndex(where: { $0.index <= frame })
                else { continue }
                let k = layer.keyframes[index]
                guard k.visible, let ref = k.ref else { continue }
                var v = (x: k.x, y: k.y, sx: k.scaleX, sy: k.scaleY, kx: k.skewX, ky: k.skewY, alpha: k.alpha)
                if k.tweened, index < layer.keyframes.count - 1, k.index != frame {
                    let n = layer.keyframes[index + 1]
                    var p = Double(frame - k.index) / Double(k.duration)
                    p -= k.ease * p * (1 - p)
                    v = (k.x + (n.x - k.x) * p, k.y + (n.y - k.y) * p, k.scaleX + (n.scaleX - k.scaleX) * p,
                         k.scaleY + (n.scaleY - k.scaleY) * p, k.skewX + (n.skewX - k.skewX) * p,
                         k.skewY + (n.skewY - k.skewY) * p, k.alpha + (n.alpha - k.alpha) * p)
                }
                let a = v.sx * cos(v.ky), b = v.sx * sin(v.ky), c = -v.sy * sin(v.kx), d = v.sy * cos(v.kx)
                func placed(_ pivot: (Double, Double)) -> Matrix2D {
                    parent.concatenating(Matrix2D(a: a, b: b, c: c, d: d, tx: v.x - (a * pivot.0 + c * pivot.1),
                                                  ty: v.y - (b * pivot.0 + d * pivot.1)))
                }
                if let texture = textures[ref] {
                    let pivot = raw.is2013Schema
                        ? (texture.origin[0] / scale, texture.origin[1] / scale) : (k.pivotX, k.pivotY)
                    items.append((ref, placed(pivot), alpha * v.alpha))
                } else if let child = raw.movies.first(where: { $0.id == ref }), child.frames > 0 {
                    // The nested movie was swapped in at the start of this run of keyframes naming it.
                    var start = index
                    while start > 0, layer.keyframes[start - 1].ref == ref { start -= 1 }
                    let age = frame - layer.keyframes[start].index
                    draw(movie: child, frame: age % child.frames, parent: placed((k.pivotX, k.pivotY)),
                         alpha: alpha * v.alpha, into: &items)
                }
            }
        }
    }
}
