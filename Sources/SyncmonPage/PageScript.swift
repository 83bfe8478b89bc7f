/// The page's own script (docs/page.md, "Refresh"): every 10 s it fetches the page it is on and
/// swaps the parts marked `data-live` whose content changed, row by row in the table, so the
/// page updates in place. When a fetch fails the page stays as it was, with a note saying since
/// when it is not fresh; the next success clears it. The page is whole without it. It marks
/// `<html data-js="on">`, so that a test can tell it ran.
enum PageScript {
    static let text = #"""
        "use strict";
        (function () {
          var every = 10000;
          document.documentElement.setAttribute("data-js", "on");
          function note(text) {
            var el = document.getElementById("stale");
            if (el) { el.textContent = text; el.hidden = !text; }
          }
          function swapRows(old, fresh) {
            var a = old.children, b = fresh.children, same = a.length === b.length;
            for (var i = 0; same && i < a.length; i++) {
              same = a[i].getAttribute("data-pair") === b[i].getAttribute("data-pair");
            }
            if (!same) { old.replaceWith(document.importNode(fresh, true)); return; }
            for (var j = 0; j < a.length; j++) {
              if (a[j].outerHTML !== b[j].outerHTML) { a[j].replaceWith(document.importNode(b[j], true)); }
            }
          }
          function apply(doc) {
            document.querySelectorAll("[data-live]").forEach(function (old) {
              var fresh = doc.getElementById(old.id);
              // The first pair or the last one gone: the page changes shape, so it is loaded anew.
              if (!fresh || fresh.tagName !== old.tagName) { location.reload(); return; }
              if (fresh.outerHTML === old.outerHTML) { return; }
              if (old.tagName === "TBODY") { swapRows(old, fresh); } else { old.replaceWith(document.importNode(fresh, true)); }
            });
            document.title = doc.title;
          }
          var failedSince = null;
          function refresh() {
            fetch(location.pathname, { cache: "no-store", credentials: "same-origin" })
              .then(function (response) {
                if (!response.ok) { throw new Error("HTTP " + response.status); }
                return response.text();
              })
              .then(function (text) {
                apply(new DOMParser().parseFromString(text, "text/html"));
                failedSince = null;
                note("");
              })
              .catch(function () {
                failedSince = failedSince || new Date();
                note("Not refreshed since " + failedSince.toLocaleTimeString() + ": the daemon did not answer.");
              })
              .then(function () { setTimeout(refresh, every); });
          }
          setTimeout(refresh, every);
        })();

        """#
}
