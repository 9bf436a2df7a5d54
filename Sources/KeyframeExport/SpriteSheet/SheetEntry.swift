/// One named frame as every data format describes it: where its picture is stored and how it sits in the untrimmed
/// frame.
struct SheetEntry: Sendable, Equatable {
    /// `<clip><frame, 4 digits>` (`walk0000`), the names Sparrow readers group animations by.
    var name: String
    /// The clip the frame belongs to.
    var clip: String
    /// The frame's duration in milliseconds.
    var milliseconds: Double
    /// The stored picture.
    var slot: SheetLayout.Slot
    /// The trimmed picture's offset in the untrimmed frame.
    var trimX: Int, trimY: Int
    /// The untrimmed frame's size.
    var sourceWidth: Int, sourceHeight: Int

    /// Whether trimming removed anything.
    var trimmed: Bool {
        trimX != 0 || trimY != 0 || slot.width != sourceWidth || slot.height != sourceHeight
    }

    /// The entries of `frames` stored at `layout`'s slots, in frame order.
    static func entries(_ frames: SheetFrames, layout: SheetLayout) -> [SheetEntry] {
        frames.frames.map { frame in
            let number = String(frame.number)
            let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
            return SheetEntry(name: frame.clip + padded, clip: frame.clip, milliseconds: frame.milliseconds,
                              slot: layout.slots[frame.picture], trimX: frame.trimX, trimY: frame.trimY,
                              sourceWidth: frame.sourceWidth, sourceHeight: frame.sourceHeight)
        }
    }
}
