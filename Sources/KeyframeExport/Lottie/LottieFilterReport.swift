import KeyframeModel

/// The filters a Lottie clip leaves out: Lottie files carry no Flash filters, so every node with filters that the
/// clip can show gets one warning `lottie-filter-dropped` and counts as approximated in the clip's report
/// (`keyframe render` draws blur, glow, drop shadow and adjust colour; the import already warns about the kinds
/// nothing draws).
enum LottieFilterReport {
    /// One warning per node with filters in the compositions `clip` reaches, in document order, and those nodes
    /// (`<composition>/<node>`) added to `report`'s approximated ones.
    static func diagnostics(for clip: Clip, document: Document, report: inout LottieReport) -> [Diagnostic] {
        var byID: [String: Composition] = [:]
        for composition in document.compositions where byID[composition.id] == nil { byID[composition.id] = composition }
        var reached: Set<String> = [clip.composition]
        var pending = [clip.composition]
        while let id = pending.popLast() {
            for node in byID[id]?.nodes ?? [] {
                for keyframe in node.tracks.content?.keyframes ?? [] {
                    if case .composition(let instance) = keyframe.value, reached.insert(instance.composition).inserted {
                        pending.append(instance.composition)
                    }
                }
            }
        }
        var diagnostics: [Diagnostic] = []
        for composition in document.compositions where reached.contains(composition.id) {
            for node in composition.nodes {
                let kinds = (node.tracks.filters?.keyframes ?? []).flatMap { $0.value.map(\.kind) }
                guard !kinds.isEmpty else { continue }
                var unique: [String] = []
                for kind in kinds where !unique.contains(kind) { unique.append(kind) }
                let name = "\(composition.id)/\(node.id)"
                diagnostics.append(Diagnostic(
                    severity: .warning, code: "lottie-filter-dropped",
                    message: "filters are not exported (\(unique.joined(separator: ", "))); \(name) is drawn without them",
                    path: name))
                report.approximated.insert(name)
            }
        }
        return diagnostics
    }
}
