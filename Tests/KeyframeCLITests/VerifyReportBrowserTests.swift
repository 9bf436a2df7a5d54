#if canImport(Glibc)  // ChromiumSession is Linux-only.
import Foundation
import KeyframePNG
import KeyframeRaster
import KeyframeTestSupport
import XCTest

/// `keyframe verify --html` reports opened in headless Chromium: the heat map shows how much a frame changed (a
/// change of 5 and one of 60 differ, each as its scale shows it), swipe, onion skin and blink compare expected and
/// actual, zoom reaches single pixels with the changed area outlined, and the page names the command that records
/// the new frames.
final class VerifyReportBrowserTests: XCTestCase {
    var spinner: String { TestPaths.packageRoot.appendingPathComponent("Samples/bta-spinner").path }

    /// Adds `amount` to the colour channels of a 20 × 8 block at (30, 0) of an opaque golden frame.
    func brighten(_ path: String, by amount: Int) throws {
        var frame = try PNGDecoder().decode(contentsOf: path)
        for y in 0..<8 {
            for x in 30..<50 {
                let p = frame.pixel(x: x, y: y)
                XCTAssertEqual(p.a, 255)
                XCTAssertLessThanOrEqual(Int(max(p.r, p.g, p.b)) + amount, 255, "no channel clips")
                frame.setPixel(x: x, y: y, PremultipliedPixel(r: p.r + UInt8(amount), g: p.g + UInt8(amount),
                                                              b: p.b + UInt8(amount), a: 255))
            }
        }
        var encoder = PNGEncoder(options: .fast)
        try encoder.write(frame, to: path)
    }

    /// The screenshot of an element, decoded.
    func shot(_ chromium: ChromiumSession, _ selector: String) throws -> Bitmap {
        let value = try chromium.evaluate("""
            (() => { const r = document.querySelector(`\(selector)`).getBoundingClientRect();
                     return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]; })()
            """)
        let r = try XCTUnwrap(value as? [Double], "no element \(selector)")
        return try PNGDecoder().decode(chromium.screenshot(x: r[0], y: r[1], width: r[2], height: r[3]))
    }

    func testHeatMapShowsHowMuchAndTheComparisonToolsWork() throws {
        guard let executable = ChromiumSession.executable() else {
            throw XCTSkip("chromium is not installed (Scripts/ensure-deps.sh installs it); the report's browser tests cannot run")
        }
        let root = try TestPaths.temporaryFolder("verify-report-browser")
        defer { try? FileManager.default.removeItem(at: root) }
        let options = ["--size", "80x80", "--background", "#336699", "--frames", "5"]
        var pages: [Int: URL] = [:]
        for amount in [5, 60] {
            let golden = root.appendingPathComponent("golden\(amount)")
            XCTAssertEqual(try CLIRunner.run(["render", spinner, "-o", golden.path] + options).status, 0)
            try brighten(golden.appendingPathComponent("spinner-0005.png").path, by: amount)
            let page = root.appendingPathComponent("report\(amount).html")
            let result = try CLIRunner.run(["verify", spinner, "--golden", golden.path, "--html", page.path,
                                            "--artifacts", root.appendingPathComponent("artifacts\(amount)").path,
                                            "--jobs", "1"] + options, directory: root)
            XCTAssertEqual(result.status, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("max difference \(amount),"), result.stderr)
            pages[amount] = page
        }

        let chromium = try ChromiumSession(executable: executable, width: 1400, height: 900)
        defer { chromium.close() }
        var heat: [Int: PremultipliedPixel] = [:]
        var unchanged: [Int: PremultipliedPixel] = [:]
        for (amount, page) in pages.sorted(by: { $0.key < $1.key }) {
            try chromium.navigate(page.absoluteURL.absoluteString)
            try chromium.wait(for: "window.keyframeVerifyReport && keyframeVerifyReport.ready")
            // The command that accepts the change: this verification with --record, its colour quoted for a shell.
            let command = try XCTUnwrap(chromium.evaluate("document.getElementById('record-command').textContent") as? String)
            XCTAssertEqual(command, "\(CLIRunner.binary.path) verify \(spinner) --golden \(root.path)/golden\(amount) "
                           + "--size 80x80 --background '#336699' --frames 5 --record")
            // One pixel per picture pixel, then the heat map's colour inside the changed block and outside it.
            try chromium.evaluate("""
                (() => { const z = document.querySelector('select.zoom'); z.value = '1'; z.dispatchEvent(new Event('change')); })()
                """)
            let map = try shot(chromium, "img[alt='heat map']")
            XCTAssertEqual(map.width, 80)
            heat[amount] = map.pixel(x: 40, y: 4)
            unchanged[amount] = map.pixel(x: 40, y: 20)
            // The map's colour is the scale's colour at that difference (the bar under the legend, 512 px wide).
            let bar = try shot(chromium, "#heat-scale img")
            let x = Int((BitmapDifference.heatPosition(amount) * Double(bar.width - 1)).rounded())
            let scale = bar.pixel(x: x, y: bar.height / 2)
            let mapped = try XCTUnwrap(heat[amount])
            XCTAssertLessThanOrEqual(abs(Int(scale.r) - Int(mapped.r)) + abs(Int(scale.g) - Int(mapped.g))
                                     + abs(Int(scale.b) - Int(mapped.b)), 24,
                                     "a change of \(amount) is \(mapped) on the map but \(scale) on its scale")
            // The outline of the changed area: 20 × 8 pixels at (30, 0), at 1×.
            let box = try XCTUnwrap(chromium.evaluate("""
                (() => { const p = document.querySelector('img[alt="heat map"]').getBoundingClientRect();
                         const b = document.querySelector('img[alt="heat map"] + .box').getBoundingClientRect();
                         return [b.left - p.left, b.top - p.top, b.width, b.height]; })()
                """) as? [Double])
            XCTAssertEqual(box.map { Int($0.rounded()) }, [30, 0, 20, 8])
        }
        let five = try XCTUnwrap(heat[5]), sixty = try XCTUnwrap(heat[60])
        let apart = abs(Int(five.r) - Int(sixty.r)) + abs(Int(five.g) - Int(sixty.g)) + abs(Int(five.b) - Int(sixty.b))
        XCTAssertGreaterThan(apart, 150, "+5 shows as \(five), +60 as \(sixty): they must not look alike")
        XCTAssertEqual(unchanged[5], unchanged[60], "unchanged pixels look the same in both reports")
        XCTAssertNotEqual(unchanged[5], five)

        // Still on the +60 report: swipe at 50 % shows the expected frame left of the middle, the actual one right.
        let expected = try PNGDecoder().decode(contentsOf: root.appendingPathComponent("golden60/spinner-0005.png").path)
        let actual = try PNGDecoder().decode(contentsOf: root.appendingPathComponent("artifacts60/spinner-0005.actual.png").path)
        try chromium.evaluate("""
            (() => { document.querySelector('button[data-mode=swipe]').click();
                     const s = document.querySelector('.amount input'); s.value = '50'; s.dispatchEvent(new Event('input')); })()
            """)
        let swiped = try shot(chromium, ".stage .pic img.under")
        XCTAssertEqual(swiped.width, 80)
        XCTAssertEqual(swiped.pixel(x: 35, y: 4), expected.pixel(x: 35, y: 4), "left of the middle: expected")
        XCTAssertEqual(swiped.pixel(x: 45, y: 4), actual.pixel(x: 45, y: 4), "right of the middle: actual")
        XCTAssertNotEqual(expected.pixel(x: 45, y: 4), actual.pixel(x: 45, y: 4))
        // Onion skin at 50 %: the block half way between expected and actual.
        try chromium.evaluate("document.querySelector('button[data-mode=onion]').click()")
        let onion = try shot(chromium, ".stage .pic img.under").pixel(x: 40, y: 4)
        let e = expected.pixel(x: 40, y: 4), a = actual.pixel(x: 40, y: 4)
        XCTAssertEqual(Double(onion.b), (Double(e.b) + Double(a.b)) / 2, accuracy: 2)
        // Blink alternates expected and actual by itself.
        try chromium.evaluate("document.querySelector('button[data-mode=blink]').click()")
        let first = try chromium.evaluate("document.querySelector('.stage .which').textContent") as? String
        try chromium.wait(for: "document.querySelector('.stage .which').textContent !== '\(first ?? "")'", timeout: 5)
        // Zoom to the change: the largest power of two up to 16× at which the 20 × 8 area fits the window.
        _ = try chromium.evaluate("""
            document.querySelector('button[data-mode=swipe]').click(); document.querySelector('button.to-change').click()
            """)
        XCTAssertEqual(try chromium.evaluate("document.querySelector('section.frame').dataset.zoom") as? String, "16")
        let zoomed = try shot(chromium, ".stage .pic img.under")
        XCTAssertEqual(zoomed.width, 80 * 16)
        XCTAssertEqual(zoomed.pixel(x: 35 * 16 + 8, y: 4 * 16 + 8), expected.pixel(x: 35, y: 4), "pixels stay sharp")
        XCTAssertEqual(chromium.requestedURLs.filter { !$0.hasPrefix("file:") && !$0.hasPrefix("data:") }, [])
    }
}
#endif
