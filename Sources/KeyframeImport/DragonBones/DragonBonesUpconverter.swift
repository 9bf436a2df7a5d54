import KeyframeJSON
import KeyframeModel

/// Reads DragonBones 2.3 and 3.0 data (absolute, often armature-space frames; pivots `pX`/`pY`) into the 4.5+ form.
struct DragonBonesUpconverter {
    /// The versions this converts.
    static let versions: Set<String> = ["2.3", "3.0"]

    func read(_ root: JSONCursor, version: String, diagnostics: inout DiagnosticCollector, file: String)
        throws(JSONSchemaError) -> DragonBonesWire.Data
    {
        throw root.error("DragonBones \(version) data needs up-conversion, which is not implemented yet")
    }
}
