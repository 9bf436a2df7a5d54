import Dispatch
import Foundation
import KeyframeJSON
import KeyframeModel
import KeyframePNG
import KeyframeRaster
import KeyframeRender

/// The image assets of one Lottie file: each sprite cut from its atlas (rotated regions turned upright), optionally
/// with a constant colour transform baked in, encoded as PNG and deduplicated by content.
///
/// Asset ids are named after the sprites (``LottieNames/picture(sprite:tint:)``): the same sprite and colour get the
/// same id and file name in every clip and every run, and an id always stands for the same pixels, so clips exported
/// into one folder share their `images/` files. Two pictures with the same bytes in one file are one asset, under the
/// id of the one the file uses first.
struct LottieImageTable {
    /// One picture ready to place: its asset id and its size in pixels.
    struct Entry: Equatable {
        var id: String
        var width: Int
        var height: Int
    }

    private let document: Document
    private let library: AtlasLibrary
    private let names: LottieNames
    private let sprites: [String: Sprite]
    private var entries: [String: Entry] = [:]  // sprite + colour key → entry
    private var byID: [String: (entry: Entry, png: [UInt8])] = [:]
    private(set) var order: [String] = []
    /// Pictures already encoded for this export (by any clip, or up front).
    private let cache: LottiePictureCache

    init(document: Document, library: AtlasLibrary, cache: LottiePictureCache = LottiePictureCache(),
         names: LottieNames) {
        self.document = document
        self.library = library
        self.names = names
        self.cache = cache
        var sprites: [String: Sprite] = [:]
        for sprite in document.assets.sprites where sprites[sprite.id] == nil { sprites[sprite.id] = sprite }
        self.sprites = sprites
    }

    /// A picture asked for but not yet encoded: encoded in ``finish()``, all together, on every core.
    private struct Pending {
        var key: String
        var source: Source
        /// The picture's size in pixels (larger pictures are encoded first).
        var pixels: Int
    }

    /// Where a pending picture's pixels come from.
    private enum Source {
        /// A sprite cut from its atlas, with a colour baked in or not.
        case sprite(Sprite, AtlasLibrary.ResolvedSprite, ColorTransform?)
        /// A picture drawn already (``PoseBaker``).
        case drawn(Bitmap)
    }
    private var pending: [Pending] = []
    /// Picture keys in the order first asked for (the order of the assets).
    private var requests: [String] = []
    /// The id each key's picture got.
    private var ids: [String: String] = [:]

    /// The asset for sprite `id` with `color` baked in (`nil`: the picture as it is). Pictures not yet encoded for
    /// this export are encoded in ``finish()``.
    ///
    /// - Throws: ``ExportError`` when the sprite is not in the atlas or its region lies outside the atlas image.
    mutating func entry(sprite id: String, color: ColorTransform?, node: String) throws(ExportError) -> Entry {
        let key = color.map { "\(id)\u{1}\(LottieImageTable.key(of: $0))" } ?? id
        if let known = entries[key] { return known }
        guard let sprite = sprites[id], let resolved = library.sprite(id) else {
            throw ExportError(message: "sprite \"\(id)\" shown by \(node) is not in the atlas")
        }
        try LottieImageTable.checkRegion(sprite, resolved, library: library)
        let region = resolved.region
        let entry = Entry(id: names.picture(sprite: id, tint: color.map(LottieImageTable.key(of:))),
                          width: sprite.rotated ? region.height : region.width,
                          height: sprite.rotated ? region.width : region.height)
        if cache.picture(key) == nil {
            pending.append(Pending(key: key, source: .sprite(sprite, resolved, color),
                                   pixels: region.width * region.height))
        }
        entries[key] = entry
        ids[key] = entry.id
        requests.append(key)
        return entry
    }

    /// The asset for a picture drawn already (a filtered node's appearance, ``PoseBaker``), named `name` (an
    /// identifier), its size and the CRC-32 of its pixels, so the same pixels get the same id in every clip and run.
    mutating func entry(drawn picture: Bitmap, name: String) -> Entry {
        let crc = String(Deflate.crc32(picture.pixels), radix: 16)
        let digest = "\(picture.width)x\(picture.height)_" + String(repeating: "0", count: 8 - crc.count) + crc
        let key = "\u{2}" + digest
        if let known = entries[key] { return known }
        let entry = Entry(id: name + "_" + digest, width: picture.width, height: picture.height)
        if cache.picture(key) == nil {
            pending.append(Pending(key: key, source: .drawn(picture), pixels: picture.width * picture.height))
        }
        entries[key] = entry
        ids[key] = entry.id
        requests.append(key)
        return entry
    }

    /// Encodes every picture asked for and not yet encoded, spread over the machine's cores (each picture's bytes
    /// are the same whichever thread encodes it), and lists the assets in the order they were first asked for.
    /// Returns, for each picture whose bytes equal an earlier one's, its id and the earlier one's.
    mutating func finish() throws(ExportError) -> [String: String] {
        let work = pending
        pending = []
        if !work.isEmpty {
            let library = self.library
            let cache = self.cache
            let failures = LottieEncodingFailures()
            let workers = min(ProcessInfo.processInfo.activeProcessorCount, work.count)
            // Largest pictures first, each worker taking the next one when it is free: on a machine whose other
            // cores are busy, no worker is left with a fixed share to finish alone.
            let queue = LottieWorkQueue(order: work.indices.sorted { a, b in
                work[a].pixels != work[b].pixels ? work[a].pixels > work[b].pixels : a < b
            })
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                var encoder = PNGEncoder(options: cache.encoding)
                while let index = queue.next() {
                    let item = work[index]
                    switch LottieImageTable.encode(item, library: library, contents: cache.contents, encoder: &encoder) {
                    case .success(let picture): cache.store(item.key, picture)
                    case .failure(let error): failures.add(index, error)
                    }
                }
            }
            if let first = failures.first { throw first }
        }
        var renames: [String: String] = [:]
        var byBytes: [LottiePictureCache.PNGBytes: String] = [:]
        for key in requests {
            guard let picture = cache.picture(key), let id = ids[key] else { continue }
            if let first = byBytes[picture.bytes] {
                if first != id {
                    renames[id] = first
                    ids[key] = first
                    entries[key]?.id = first
                }
                continue
            }
            byBytes[picture.bytes] = id
            byID[id] = (Entry(id: id, width: picture.width, height: picture.height), picture.png)
            order.append(id)
        }
        return renames
    }

    /// One pending picture cut, baked and encoded.
    private static func encode(_ item: Pending, library: AtlasLibrary, contents: EncodedPictureCache,
                               encoder: inout PNGEncoder) -> Result<LottiePictureCache.Picture, ExportError>
    {
        var picture: Bitmap
        let name: String
        switch item.source {
        case .sprite(let sprite, let resolved, let color):
            do { picture = try upright(sprite, resolved, library: library) } catch { return .failure(error) }
            if let color { bake(color, into: &picture) }
            name = "sprite \"\(sprite.id)\""
        case .drawn(let bitmap):
            picture = bitmap
            name = "the drawn picture \(item.key.dropFirst())"
        }
        do {
            let png = try contents.png(for: picture, encoder: &encoder).png
            return .success(LottiePictureCache.Picture(png: png, width: picture.width, height: picture.height))
        } catch {
            return .failure(ExportError(message: "could not encode \(name) as PNG: \(error.message)"))
        }
    }

    /// `json` with every `refId` of its layers (and of its assets' layers) that `renames` names replaced.
    static func renaming(_ json: JSONValue, _ renames: [String: String]) -> JSONValue {
        guard !renames.isEmpty else { return json }
        switch json {
        case .object(var object):
            if let ref = object["refId"]?.stringValue, let final = renames[ref] { object["refId"] = .string(final) }
            for key in ["layers", "assets"] {
                if let nested = object[key] { object[key] = renaming(nested, renames) }
            }
            return .object(object)
        case .array(let items):
            return .array(items.map { renaming($0, renames) })
        default:
            return json
        }
    }

    private var maskShapes: [String: (shape: LottieMaskShape, width: Int, height: Int)] = [:]

    /// The coverage of sprite `id`'s picture as rectangles (for layer masks), with the picture's size in pixels.
    mutating func maskShape(sprite id: String, node: String) throws(ExportError)
        -> (shape: LottieMaskShape, width: Int, height: Int)
    {
        if let known = maskShapes[id] { return known }
        guard let sprite = sprites[id], let resolved = library.sprite(id) else {
            throw ExportError(message: "sprite \"\(id)\" of the mask over \(node) is not in the atlas")
        }
        let picture = try LottieImageTable.upright(sprite, resolved, library: library)
        let result = (LottieMaskShape(picture: picture), picture.width, picture.height)
        maskShapes[id] = result
        return result
    }

    /// The upright picture of a sprite in atlas pixels.
    static func upright(_ sprite: Sprite, _ resolved: AtlasLibrary.ResolvedSprite, library: AtlasLibrary)
        throws(ExportError) -> Bitmap
    {
        try checkRegion(sprite, resolved, library: library)
        let atlas = library.images[resolved.image]
        let region = resolved.region
        let width = sprite.rotated ? region.height : region.width
        let height = sprite.rotated ? region.width : region.height
        var out = Bitmap(width: width, height: height)
        atlas.pixels.withUnsafeBufferPointer { src in
            out.pixels.withUnsafeMutableBufferPointer { dst in
                for v in 0..<height {
                    for u in 0..<width {
                        // Rotated: upright (u, v) is atlas (x + w − 1 − v, y + u), w the stored region's width.
                        let x = sprite.rotated ? region.x + region.width - 1 - v : region.x + u
                        let y = sprite.rotated ? region.y + u : region.y + v
                        let s = (y * atlas.width + x) * 4, d = (v * width + u) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return out
    }

    /// Throws when the sprite's region is empty or lies outside its atlas image.
    static func checkRegion(_ sprite: Sprite, _ resolved: AtlasLibrary.ResolvedSprite, library: AtlasLibrary)
        throws(ExportError)
    {
        let atlas = library.images[resolved.image]
        let region = resolved.region
        guard region.width > 0, region.height > 0, region.x >= 0, region.y >= 0,
            region.x + region.width <= atlas.width, region.y + region.height <= atlas.height
        else {
            throw ExportError(message: "sprite \"\(sprite.id)\" (\(sprite.name)) lies outside its atlas image "
                + "\"\(sprite.image)\" (\(atlas.width)×\(atlas.height))")
        }
    }

    /// Applies a colour transform to premultiplied pixels as the renderer does: on straight colour, clamped.
    static func bake(_ color: ColorTransform, into bitmap: inout Bitmap) {
        let m = [color.redMultiplier, color.greenMultiplier, color.blueMultiplier, color.alphaMultiplier]
        let o = [color.redOffset, color.greenOffset, color.blueOffset, color.alphaOffset]
        bitmap.pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i < p.count {
                let a = Double(p[i + 3])
                if a == 0 && o[3] <= 0 { i += 4; continue }
                var straight = [0.0, 0.0, 0.0, a]
                for k in 0..<3 { straight[k] = a > 0 ? Double(p[i + k]) * 255 / a : 0 }
                for k in 0..<4 { straight[k] = min(max(straight[k] * m[k] + o[k], 0), 255) }
                let na = straight[3]
                for k in 0..<3 { p[i + k] = UInt8((straight[k] * na / 255).rounded()) }
                p[i + 3] = UInt8(na.rounded())
                i += 4
            }
        }
    }

    /// The colour part that decides a baked copy, quantized so float noise does not make new images.
    static func key(of color: ColorTransform) -> String {
        let values = [color.redMultiplier, color.greenMultiplier, color.blueMultiplier, color.alphaMultiplier,
                      color.redOffset, color.greenOffset, color.blueOffset, color.alphaOffset]
        return values.map { String(Int(($0 * 10_000).rounded())) }.joined(separator: ",")
    }

    /// FNV-1a, 64 bits, as 16 hex digits: a stable short name for some bytes.
    static func hexHash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    /// The `assets` entries and, for `folder`, the PNG files to write beside the JSON (`images/<id>.png`, referred to
    /// through `folder`).
    func assets(mode: LottieExportSettings.Images, folder: String = "images/") -> (json: [JSONValue], files: [ExportedFile]) {
        var json: [JSONValue] = []
        var files: [ExportedFile] = []
        for id in order {
            guard let (entry, png) = byID[id] else { continue }
            var asset: JSONObject = [
                "id": .string(id), "w": .number(Double(entry.width)), "h": .number(Double(entry.height)),
            ]
            switch mode {
            case .embed:
                asset["u"] = ""
                asset["p"] = .string("data:image/png;base64," + Data(png).base64EncodedString())
                asset["e"] = 1
            case .folder:
                asset["u"] = .string(folder)
                asset["p"] = .string("\(id).png")
                asset["e"] = 0
                files.append(ExportedFile(relativePath: "images/\(id).png", bytes: png))
            }
            json.append(.object(asset))
        }
        return (json, files)
    }
}

/// The first encoding failure (lowest picture index) of a concurrent ``LottieImageTable/finish()``.
final class LottieEncodingFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var failures: [(index: Int, error: ExportError)] = []

    func add(_ index: Int, _ error: ExportError) {
        lock.lock(); defer { lock.unlock() }
        failures.append((index, error))
    }

    var first: ExportError? {
        lock.lock(); defer { lock.unlock() }
        return failures.min { $0.index < $1.index }?.error
    }
}

/// Hands out work items, one at a time, to whichever worker asks first.
final class LottieWorkQueue: @unchecked Sendable {
    private let lock = NSLock()
    private let order: [Int]
    private var cursor = 0

    init(order: [Int]) { self.order = order }

    func next() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard cursor < order.count else { return nil }
        cursor += 1
        return order[cursor - 1]
    }
}
