import SyncmonExposition
import Testing

/// Escaping of label values and help text.
@Suite("Escaping")
struct EscapingTests {
    @Test("label values escape backslash, double quote and newline, and nothing else")
    func labelValues() {
        let labels = LabelSet(["engine": #"a\b"c"#, "database": "line1\nline2", "plain": "tab\tünï €"])
        #expect(labels.rendered == "engine=\"a\\\\b\\\"c\",database=\"line1\\nline2\",plain=\"tab\tünï €\"")
    }

    @Test("an empty label value is kept as \"\"")
    func emptyValue() {
        #expect(LabelSet("engine", "").rendered == #"engine="""#)
    }

    @Test("help: text 0.0.4 escapes backslash and newline but leaves quotes alone")
    func helpText() {
        let family = MetricFamily.gauge("syncmon_x", help: "a \"quoted\" C:\\path\nnext")
        let output = render(.prometheusText) { $0.family(family) }
        #expect(
            output == #"""
                # HELP syncmon_x a "quoted" C:\\path\nnext
                # TYPE syncmon_x gauge

                """#
        )
    }

    @Test("help: OpenMetrics also escapes double quotes")
    func helpOpenMetrics() {
        let family = MetricFamily.gauge("syncmon_x", help: "a \"quoted\" C:\\path\nnext")
        let output = render(.openMetrics) { $0.family(family) }
        #expect(
            output == #"""
                # TYPE syncmon_x gauge
                # HELP syncmon_x a \"quoted\" C:\\path\nnext
                # EOF

                """#
        )
    }

    @Test("state names are escaped like any label value")
    func stateNames() {
        let family = MetricFamily.stateSet("syncmon_s", help: "S.", label: "status", states: [#"we"ird"#, "ok"])
        let output = render(.prometheusText) { writer in
            writer.family(family)
            writer.stateSet(family, active: 1)
        }
        #expect(output.contains(#"syncmon_s{status="we\"ird"} 0"#))
        #expect(output.contains(#"syncmon_s{status="ok"} 1"#))
    }

    @Test("label sets combine in order with one comma")
    func combining() {
        let base = LabelSet(["engine": "notes", "database": "private"])
        #expect(base.appending("phase", "import").rendered == #"engine="notes",database="private",phase="import""#)
        #expect(base.appending(LabelSet("kind", "database")).rendered.hasSuffix(#"database="private",kind="database""#))
        #expect(LabelSet.empty.appending(base) == base)
        #expect(base.appending(.empty) == base)
        #expect(LabelSet.empty.isEmpty)
        #expect(LabelSet.empty.rendered == "")
    }
}
