/// Something a ``VirtualClock`` moves forward: an animator or a group of animators.
public protocol ClockDriven: AnyObject {
    /// Advances by `delta` of engine time. Called only by the clock (or a group that owns it).
    func advance(by delta: Seconds)
}
