/// The pages' one stylesheet (docs/page.md, "Colours"): calm greys, one colour per health state,
/// light and dark by `prefers-color-scheme`, and below 760 px each row a card, so that a phone
/// (390 px) reads it without scrolling sideways. No inline style anywhere (the CSP forbids it):
/// the strip's stretches are coloured by class and sized by it (`height`), which keeps rows short,
/// and stroked 3 px wide so that a stretch of a few seconds in a day's strip is still seen.
enum PageStylesheet {
    static let text = """
        :root{color-scheme:light dark;--bg:#f6f7f9;--fg:#1f2328;--muted:#59636e;--card:#fff;--line:#d8dee4;--none:#e4e8ec;\
        --ok:#1a7f37;--error:#cf222e;--stalled:#bc4c00;--down:#a40e26;--warn:#9a6700;--retry:#8a6d00;--throttled:#0969da;\
        --stopped:#6e7781;--unknown:#8250df}
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--card:#151b23;--line:#30363d;\
        --none:#262c36;--ok:#3fb950;--error:#f85149;--stalled:#f0883e;--down:#ff7b72;--warn:#d29922;--retry:#e3b341;\
        --throttled:#58a6ff;--stopped:#8b949e;--unknown:#bc8cff}}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;background:var(--bg);color:var(--fg)}
        header,main,footer{max-width:1280px;margin:0 auto;padding:16px 20px}
        header{padding-top:20px;padding-bottom:4px}
        h1{font-size:20px;font-weight:650;margin:0;overflow-wrap:anywhere}
        h1 .host{color:var(--muted);font-weight:400}
        h2{font-size:16px;font-weight:650;margin:24px 0 8px}
        a{color:inherit;text-decoration-color:var(--line);text-underline-offset:3px}
        a:hover{text-decoration-color:currentColor}
        .counts{display:flex;flex-wrap:wrap;gap:6px;list-style:none;margin:12px 0 6px;padding:0}
        .asof,.stale,.note{color:var(--muted);font-size:13px;margin:4px 0}
        .stale{color:var(--warn);font-weight:600}
        .b,b[class]{display:inline-block;white-space:nowrap;font-size:12.5px;font-weight:600;line-height:20px;padding:0 9px;border-radius:11px;\
        color:var(--c);border:1px solid color-mix(in srgb,var(--c) 45%,transparent);background:color-mix(in srgb,var(--c) 11%,transparent)}
        :where(.b,b[class])::before{content:"! "}
        .s-ok{--c:var(--ok)}.s-ok::before{content:"✓ "}
        .s-error{--c:var(--error)}.s-error::before,.s-engine_down::before{content:"✕ "}
        .s-engine_down{--c:var(--down)}
        .s-stalled{--c:var(--stalled)}
        .s-no_network,.s-account_not_available{--c:var(--warn)}
        .s-retrying{--c:var(--retry)}.s-retrying::before{content:"↻ "}
        .s-throttled{--c:var(--throttled)}.s-throttled::before{content:"‖ "}
        .s-stopped{--c:var(--stopped)}.s-stopped::before{content:"■ "}
        .s-unknown{--c:var(--unknown)}.s-unknown::before{content:"? "}
        .h-ok{--c:var(--ok)}.h-error{--c:var(--error)}.h-engine_down{--c:var(--down)}.h-stalled{--c:var(--stalled)}
        .h-no_network,.h-account_not_available{--c:var(--warn)}.h-retrying{--c:var(--retry)}.h-throttled{--c:var(--throttled)}
        .h-stopped{--c:var(--stopped)}.h-unknown{--c:var(--unknown)}
        main svg{display:block;width:100%;height:14px;background:var(--none);border-radius:3px;overflow:hidden}
        main svg rect{height:1px;fill:var(--c);stroke:var(--c);stroke-width:3px;vector-effect:non-scaling-stroke}
        .pairs td:empty::after{content:"—"}
        table{width:100%;border-collapse:separate;border-spacing:0;background:var(--card);border:1px solid var(--line);border-radius:10px}
        th{text-align:left;font-size:12px;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
        th,td{padding:9px 12px;vertical-align:middle;border-bottom:1px solid var(--line)}
        tbody tr:last-child td{border-bottom:0}
        td{font-size:14px}
        .pairs td:nth-child(1){font-weight:600;white-space:nowrap}
        .pairs td:nth-child(3),.detail{overflow-wrap:anywhere;color:var(--fg)}
        .pairs td:nth-child(3){min-width:16em}
        .pairs td:nth-child(4),.pairs td:nth-child(5),.pairs td:nth-child(6){white-space:nowrap;color:var(--muted)}
        .pairs th:nth-child(7),.pairs td:nth-child(7){width:18%;min-width:140px}
        .legend{display:flex;flex-wrap:wrap;gap:6px 14px;list-style:none;padding:0;margin:10px 0;color:var(--muted);font-size:12.5px}
        .legend li::before{content:"";display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;background:var(--c)}
        .legend .l-none{--c:var(--none)}
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:6px 16px;margin:0;background:var(--card);border:1px solid var(--line);\
        border-radius:10px;padding:12px 16px}
        dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
        ol.history{list-style:none;margin:0;padding:0;background:var(--card);border:1px solid var(--line);border-radius:10px}
        ol.history li{padding:8px 12px;border-bottom:1px solid var(--line);overflow-wrap:anywhere}
        ol.history li:last-child{border-bottom:0}
        ol.history time{color:var(--muted);font-variant-numeric:tabular-nums;margin-right:8px}
        .msg{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:13px;white-space:pre-wrap;overflow-wrap:anywhere}
        footer{color:var(--muted);font-size:13px;padding-bottom:28px}
        footer a{margin-right:14px}
        @media (max-width:760px){
        header,main,footer{padding-left:12px;padding-right:12px}
        .pairs thead{display:none}
        .pairs,.pairs tbody,.pairs tr,.pairs td{display:block;width:auto}
        .pairs tr{padding:10px 12px;border-bottom:1px solid var(--line)}
        .pairs tbody tr:last-child{border-bottom:0}
        .pairs td{border:0;padding:2px 0}
        .pairs td:nth-child(1){display:inline;font-size:15px;margin-right:8px;white-space:normal;overflow-wrap:anywhere}
        .pairs td:nth-child(2){display:inline}
        .pairs td:nth-child(4),.pairs td:nth-child(5),.pairs td:nth-child(6){display:inline-block;font-size:13px;margin-right:12px}
        .pairs td:nth-child(4)::before{content:"import "}
        .pairs td:nth-child(5)::before{content:"export "}
        .pairs td:nth-child(6)::before{content:"canary "}
        .pairs td:nth-child(3){min-width:0}
        .pairs td:nth-child(7){width:auto;min-width:0;padding-top:6px}
        .pairs td:empty{display:none}
        dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:6px}
        }

        """
}
