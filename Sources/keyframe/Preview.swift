import ArgumentParser

/// Placeholder replaced below.
struct Preview: ParsableCommand {}
