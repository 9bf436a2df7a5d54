/// How a sprite sheet's frames are grouped into animations (`docs/format.md` §6.5).
public enum SpriteSheetAnimations: String, Sendable, CaseIterable {
    /// The animations the file declares (PixiJS's `animations`) or its sidecar names; else frames grouped by their
    /// name without the trailing frame number (`BF idle dance0000`…`0013` → `BF idle dance`), as HaxeFlixel's
    /// `addByPrefix` is used on them, ordered by that number.
    case names
    /// Only declared animations (file or sidecar); a sheet that declares none is one clip of all its frames.
    case declared
    /// One clip of all frames in name order.
    case single
}
