import KeyframeJSON
import KeyframeModel
import KeyframeRender

/// One Lottie file holding several clips, each a marker range (``LottieExportSettings/singleFile``).
///
/// Clips that lie within another chosen clip of the same composition (Animate and Flump labels within their
/// timeline) are marker ranges inside that clip's frames; every other clip is a segment of its own, placed after the
/// previous one. A segment is the clip's own animation — what its file would hold — as a precomp (its precomp, mask
/// and matte assets renamed `s<n>_…`, pictures shared by id), shown by one precomp layer over the segment's frames
/// (`st` at its first frame, so its time is the clip's) and moved by the clip's framing within the file's canvas,
/// the union of every segment's framing. Frame `tm + n` of a clip's marker is frame `n` of
/// `keyframe render --clip <clip>`, at the clip's framing's place in the canvas.
enum LottieSingleFile {
    /// The file, the warnings for marker names lottie-web cannot read, and which clip each such marker names.
    struct Combined {
        var clip: ExportedClip
        var diagnostics: [Diagnostic]
        /// Marker name → clip name, for the markers of ``LottieMarkers/lottieWebReadsName(_:)`` false.
        var unreadableMarkers: [(String, String)]
    }

    static func combine(clips: [Clip], outputs: [LottieExporter.ClipOutput], document: Document, library: AtlasLibrary,
                        pretty: Bool) throws(ExportError) -> Combined
    {
        // Segments: the clips within no other chosen clip of their composition (of two with the same frames, the
        // first listed); every other clip is a marker range in the first segment holding it.
        func within(_ i: Int, _ j: Int) -> Bool {
            j != i && LottieMarkers.contains(clips[j], clips[i]) && (!LottieMarkers.contains(clips[i], clips[j]) || j < i)
        }
        let segments = clips.indices.filter { i in !clips.indices.contains { j in within(i, j) } }
        let segmentOf = clips.indices.map { i in
            segments.contains(i) ? i : segments.first { LottieMarkers.contains(clips[$0], clips[i]) } ?? i
        }

        // Each segment's framing in root space (a translation: `keyframe render` at its own size).
        let scene = RenderScene(document: document, library: library)
        var origins: [Int: (x: Double, y: Double, width: Int, height: Int)] = [:]
        for index in segments {
            do {
                let plans = try FramePlan.plans(for: clips[index], documentRate: document.frameRate,
                                                fps: document.frameRate.framesPerSecond, selection: .all)
                let framing = try Framing.make(plans: plans, scenes: [scene], fit: .stage, size: nil).framing
                origins[index] = (-framing.rootToDevice.tx, -framing.rootToDevice.ty, framing.width, framing.height)
            } catch {
                throw ExportError(source: document.name, message: "clip \"\(clips[index].name)\": \(error)")
            }
        }
        let minX = segments.map { origins[$0]!.x }.min() ?? 0, minY = segments.map { origins[$0]!.y }.min() ?? 0
        let maxX = segments.map { origins[$0]!.x + Double(origins[$0]!.width) }.max() ?? 1
        let maxY = segments.map { origins[$0]!.y + Double(origins[$0]!.height) }.max() ?? 1

        var images: [JSONValue] = []
        var imageIDs: Set<String> = []
        var precomps: [JSONValue] = []
        var layers: [JSONValue] = []
        var companions: [ExportedFile] = []
        var companionPaths: Set<String> = []
        var starts: [Int: Double] = [:]
        var next = 0.0
        for (n, index) in segments.enumerated() {
            let output = outputs[index]
            guard case .object(let root) = output.json else { continue }
            let frames = root["op"]?.doubleValue ?? 1
            let prefix = "s\(n)_"
            var renames: [String: String] = [:]
            for asset in root["assets"]?.arrayValue ?? [] {
                guard let id = asset["id"]?.stringValue else { continue }
                if asset["layers"] != nil { renames[id] = prefix + id }
            }
            for asset in root["assets"]?.arrayValue ?? [] {
                if asset["layers"] != nil {
                    var renamed = LottieImageTable.renaming(asset, renames)
                    if case .object(var members) = renamed, let id = members["id"]?.stringValue {
                        members["id"] = .string(renames[id] ?? id)
                        renamed = .object(members)
                    }
                    precomps.append(renamed)
                } else if let id = asset["id"]?.stringValue, imageIDs.insert(id).inserted {
                    images.append(asset)
                }
            }
            for file in output.clip.companions where companionPaths.insert(file.relativePath).inserted {
                companions.append(file)
            }
            let segmentID = prefix + "clip"
            precomps.append(.object([
                "id": .string(segmentID), "nm": .string(clips[index].name),
                "layers": LottieImageTable.renaming(root["layers"] ?? .array([]), renames),
            ]))
            let origin = origins[index]!
            layers.append(.object([
                "ddd": 0, "ty": 0, "ind": .number(Double(n + 1)), "nm": .string(clips[index].name),
                "refId": .string(segmentID), "w": .number(Double(origin.width)), "h": .number(Double(origin.height)),
                "sr": 1, "ao": 0, "bm": 0, "ip": .number(next), "op": .number(next + frames), "st": .number(next),
                "ks": .object([
                    "a": .object(["a": 0, "k": [0, 0]]),
                    "p": .object(["a": 0, "k": .array([.number(origin.x - minX), .number(origin.y - minY)])]),
                    "s": .object(["a": 0, "k": [100, 100]]), "r": .object(["a": 0, "k": 0]),
                    "o": .object(["a": 0, "k": 100]),
                ]),
            ]))
            starts[index] = next
            next += frames
        }

        var markers: [JSONValue] = []
        var diagnostics: [Diagnostic] = []
        var unreadable: [(String, String)] = []
        for (index, clip) in clips.enumerated() {
            let host = segmentOf[index]
            guard let start = starts[host] else { continue }
            let marker = LottieMarkers.Marker(name: clip.name, start: start + clip.start.value - clips[host].start.value,
                                              duration: Double(LottieMarkers.frameCount(clip, document: document)))
            markers.append(marker.json)
            if !LottieMarkers.lottieWebReadsName(clip.name) {
                var warning = LottieMarkers.nameWarning(clip.name)
                warning.message = "\(document.name): " + warning.message
                diagnostics.append(warning)
                unreadable.append((clip.name, clip.name))
            }
        }
        let animation: JSONValue = .object([
            "v": "5.7.4", "nm": .string(document.name), "fr": .number(document.frameRate.framesPerSecond), "ip": 0,
            "op": .number(max(next, 1)), "w": .number(maxX - minX), "h": .number(maxY - minY), "ddd": 0,
            "assets": .array(images + precomps), "layers": .array(LottieNames.unique(layers)),
            "markers": .array(markers),
        ])
        let bytes = pretty ? JSONWriter.write(animation) : JSONWriter.writeCompact(animation) + [0x0A]
        return Combined(clip: ExportedClip(clip: document.name,
                                           main: ExportedFile(relativePath: LottieExporter.fileName(for: document.name),
                                                              bytes: bytes),
                                           companions: companions),
                        diagnostics: diagnostics, unreadableMarkers: unreadable)
    }
}
