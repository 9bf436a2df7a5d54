import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A Flump library read with Foundation's own readers (`JSONSerialization`, `XMLParser`), independently of the
/// importer, so that tests can derive expected values from the raw files.
struct FlumpRawLibrary {
    struct Keyframe {
        var index: Int
        var duration: Int
        var ref: String?
        var label: String?
        var tweened: Bool
        var x: Double, y: Double, scaleX: Double, scaleY: Double, skewX: Double, skewY: Double
        var pivotX: Double, pivotY: Double, alpha: Double, visible: Bool
        var ease: Double = 0
    }
    struct Layer {
        var name: String
        var flipbook: Bool
        var keyframes: [Keyframe]
        /// Frames the layer covers: its last keyframe's index + duration.
        var frames: Int { keyframes.last.map { $0.index + $0.duration } ?? 0 }
    }
    struct Movie {
        var id: String
        var layers: [Layer]
        /// The layers a Flump runtime plays: only the first of a flipbook movie.
        var playedLayers: [Layer] { layers.first?.flipbook == true ? [layers[0]] : layers }
        /// Movie length: the longest played layer.
        var frames: Int { playedLayers.map(\.frames).max() ?? 0 }
    }
    struct Texture {
        var symbol: String
        var rect: [Double]
        var origin: [Double]
    }

    var frameRate: Double
    var movies: [Movie]
    /// Whether the file uses the early-2013 schema (top-level `atlases`, texture `offset`, no pivots) or the 2012
    /// `resources.json` (the same atlases; movies keyed by `symbol`, a single `rotation`, pivots in the symbol's
    /// space): textures are drawn at `offset` inside the layer's display, whose pivot the keyframe gives.
    var isOldSchema = false
    /// Textures by group scale factor; the 2013 schema's top-level atlases count as scale factor 1.
    var textureGroups: [(scaleFactor: Double, files: [String], textures: [Texture])]

    /// Reads `url` (JSON or XML).
    init(url: URL) throws {
        let data = try Data(contentsOf: url)
        if url.pathExtension.lowercased() == "xml" {
            let delegate = XMLCollector()
            let parser = XMLParser(data: data)
            parser.delegate = delegate
            guard parser.parse() else { throw CocoaError(.fileReadCorruptFile) }
            self = delegate.library
        } else {
            self = try FlumpRawLibrary(json: try JSONSerialization.jsonObject(with: data))
        }
    }

    fileprivate init(frameRate: Double, movies: [Movie], textureGroups: [(Double, [String], [Texture])]) {
        self.frameRate = frameRate
        self.movies = movies
        self.textureGroups = textureGroups.map { (scaleFactor: $0.0, files: $0.1, textures: $0.2) }
    }

    private init(json: Any) throws {
        guard let root = json as? [String: Any], let movies = root["movies"] as? [[String: Any]] else {
            throw CocoaError(.fileReadCorruptFile)
        }
        func pair(_ value: Any?, _ fallback: (Double, Double)) -> (Double, Double) {
            guard let array = value as? [NSNumber], array.count == 2 else { return fallback }
            return (array[0].doubleValue, array[1].doubleValue)
        }
        var parsedMovies: [Movie] = []
        for movie in movies {
            var layers: [Layer] = []
            for layer in movie["layers"] as? [[String: Any]] ?? [] {
                var keyframes: [Keyframe] = []
                for k in layer["keyframes"] as? [[String: Any]] ?? [] {
                    let loc = pair(k["loc"], (0, 0)), scale = pair(k["scale"], (1, 1)), pivot = pair(k["pivot"], (0, 0))
                    // 2012: one rotation (radians), i.e. equal skews.
                    let rotation = (k["rotation"] as? NSNumber)?.doubleValue
                    let skew = rotation.map { ($0, $0) } ?? pair(k["skew"], (0, 0))
                    keyframes.append(Keyframe(
                        index: (k["index"] as? NSNumber)?.intValue ?? keyframes.last.map { $0.index + $0.duration } ?? 0,
                        duration: (k["duration"] as? NSNumber)?.intValue ?? 0,
                        ref: k["ref"] as? String, label: k["label"] as? String,
                        tweened: (k["tweened"] as? Bool) ?? true,
                        x: loc.0, y: loc.1, scaleX: scale.0, scaleY: scale.1, skewX: skew.0, skewY: skew.1,
                        pivotX: pivot.0, pivotY: pivot.1, alpha: (k["alpha"] as? NSNumber)?.doubleValue ?? 1,
                        visible: (k["visible"] as? Bool) ?? true, ease: (k["ease"] as? NSNumber)?.doubleValue ?? 0))
                }
                layers.append(Layer(name: layer["name"] as? String ?? "", flipbook: (layer["flipbook"] as? Bool) ?? false,
                                    keyframes: keyframes))
            }
            parsedMovies.append(Movie(id: movie["id"] as? String ?? movie["symbol"] as? String ?? "", layers: layers))
        }
        func textures(_ atlases: [[String: Any]]) -> ([String], [Texture]) {
            var files: [String] = []
            var result: [Texture] = []
            for atlas in atlases {
                files.append(atlas["file"] as? String ?? "")
                for t in atlas["textures"] as? [[String: Any]] ?? [] {
                    var origin = (t["origin"] as? [NSNumber])?.map(\.doubleValue)
                    if origin == nil, let offset = (t["offset"] as? [NSNumber])?.map(\.doubleValue) {
                        origin = offset.map { -$0 }
                    }
                    result.append(Texture(symbol: t["symbol"] as? String ?? t["name"] as? String ?? "",
                                          rect: (t["rect"] as? [NSNumber])?.map(\.doubleValue) ?? [],
                                          origin: origin ?? []))
                }
            }
            return (files, result)
        }
        var groups: [(Double, [String], [Texture])] = []
        if let textureGroups = root["textureGroups"] as? [[String: Any]] {
            for group in textureGroups {
                let (files, list) = textures(group["atlases"] as? [[String: Any]] ?? [])
                groups.append(((group["scaleFactor"] as? NSNumber)?.doubleValue ?? 1, files, list))
            }
        } else if let atlases = root["atlases"] as? [[String: Any]] {
            let (files, list) = textures(atlases)
            groups.append((1, files, list))
        }
        self.init(frameRate: (root["frameRate"] as? NSNumber)?.doubleValue ?? 0, movies: parsedMovies,
                  textureGroups: groups)
        isOldSchema = root["textureGroups"] == nil && root["atlases"] != nil
    }
}

/// Collects the XML export with Foundation's event parser.
private final class XMLCollector: NSObject, XMLParserDelegate {
    var frameRate = 0.0
    var movies: [FlumpRawLibrary.Movie] = []
    var groups: [(Double, [String], [FlumpRawLibrary.Texture])] = []

    var library: FlumpRawLibrary {
        FlumpRawLibrary(frameRate: frameRate, movies: movies, textureGroups: groups)
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        func numbers(_ key: String) -> [Double]? {
            attributes[key].map { $0.split(separator: ",").compactMap { Double($0) } }
        }
        switch name {
        case "movie":
            movies.append(FlumpRawLibrary.Movie(id: attributes["name"] ?? "", layers: []))
            if frameRate == 0, let rate = attributes["frameRate"].flatMap(Double.init) { frameRate = rate }
        case "layer":
            movies[movies.count - 1].layers.append(
                FlumpRawLibrary.Layer(name: attributes["name"] ?? "", flipbook: attributes["flipbook"] == "true", keyframes: []))
        case "kf":
            var layer = movies[movies.count - 1].layers.removeLast()
            let index = attributes["index"].flatMap(Int.init) ?? layer.frames
            let loc = numbers("loc") ?? [0, 0], scale = numbers("scale") ?? [1, 1]
            let skew = numbers("skew") ?? [0, 0], pivot = numbers("pivot") ?? [0, 0]
            layer.keyframes.append(FlumpRawLibrary.Keyframe(
                index: index, duration: attributes["duration"].flatMap(Int.init) ?? 0, ref: attributes["ref"],
                label: attributes["label"], tweened: attributes["tweened"] != "false",
                x: loc[0], y: loc[1], scaleX: scale[0], scaleY: scale[1], skewX: skew[0], skewY: skew[1],
                pivotX: pivot[0], pivotY: pivot[1], alpha: attributes["alpha"].flatMap(Double.init) ?? 1,
                visible: attributes["visible"] != "false", ease: attributes["ease"].flatMap(Double.init) ?? 0))
            movies[movies.count - 1].layers.append(layer)
        case "textureGroup":
            groups.append((attributes["scaleFactor"].flatMap(Double.init) ?? 1, [], []))
        case "atlas":
            groups[groups.count - 1].1.append(attributes["file"] ?? "")
        case "texture":
            groups[groups.count - 1].2.append(FlumpRawLibrary.Texture(
                symbol: attributes["name"] ?? "", rect: numbers("rect") ?? [], origin: numbers("origin") ?? []))
        default:
            break
        }
    }
}
