import SyncmonCore

/// The frame every page shares: the head (viewport, the daemon's stylesheet and script, an empty
/// icon so the browser asks for no `/favicon.ico`), and the footer with the API's links, which
/// `GET /` listed before it became the status page.
enum PageDocument {
    /// From `<!DOCTYPE html>` to the opened `<body>`.
    static func open(_ html: inout HTMLWriter, title: String) {
        html.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        html.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        html.element("title", text: title)
        html.raw("<link rel=\"icon\" href=\"data:,\">")
        html.open("link", ["rel": "stylesheet", "href": PageAsset.stylesheet.path])
        html.open("script", ["src": PageAsset.script.path, "defer": "defer"])
        html.raw("</script></head>\n<body>\n")
    }

    /// The footer and the end of the document.
    static func close(_ html: inout HTMLWriter) {
        html.raw("<footer><a href=\"/\">Status</a><a href=\"/metrics\">Metrics</a>")
        html.raw("<a href=\"/api/v1/status\">Status JSON</a><a href=\"/api/v1/history\">History JSON</a>")
        html.raw("<a href=\"/healthz\">Health check</a></footer>\n</body></html>\n")
    }

    /// `<p class="asof">As of <time …>2026-11-28 10:02:11 UTC</time>…`, the page's time.
    static func asOf(_ html: inout HTMLWriter, _ model: PageModel, pairs: Int?) {
        html.raw("<p class=\"asof\">As of ")
        html.element("time", ["datetime": RFC3339.format(model.now)], text: PageTime.full(model.now))
        if let pairs {
            html.raw(" · ")
            html.text(pairs == 1 ? "1 pair" : "\(pairs) pairs")
        }
        html.raw(" · refreshed every 10 s</p>")
    }

    /// `<b class="s-HEALTH">LABEL</b>`: a badge, its colour from the health state and its words
    /// the label, never colour alone (`b`, as it is the shortest element, on every row).
    static func badge(_ html: inout HTMLWriter, _ health: PageHealth, label: String) {
        html.element("b", ["class": "s-\(health)"], text: label)
    }

    /// The legend of the strip's colours.
    static func legend(_ html: inout HTMLWriter) {
        html.raw("<ul class=\"legend\" aria-label=\"strip colours\">")
        for health in PageHealth.allCases.reversed() {
            html.element("li", ["class": "s-\(health)"], text: health.description)
        }
        html.raw("<li class=\"l-none\">no data</li></ul>")
    }
}
