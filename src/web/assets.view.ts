// The console's one stylesheet and one small script, served from memory with a content hash in
// the URL so that browsers may cache them for a year.
import crypto from 'node:crypto';

export const CONSOLE_CSS = `
:root{--ink:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#f6f8fa;--card:#fff;--brand:#0b5d3b;--brand-ink:#fff;--focus:#ffbf47;--danger:#a40e26;--warn:#7d4e00;--ok:#116329;--info:#0a4b8c}
*{box-sizing:border-box}
html{font-size:100%}
body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Ubuntu,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--info)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px;box-shadow:0 0 0 5px var(--ink)}
.skip{position:absolute;left:-999px;top:0;background:var(--ink);color:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:0}
header.top{background:var(--brand);color:var(--brand-ink);padding:.75rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;justify-content:space-between}
header.top .brand{font-weight:700;font-size:1.1rem;color:var(--brand-ink);text-decoration:none}
header.top .who{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap;font-size:.95rem}
header.top button.link{background:none;border:1px solid rgba(255,255,255,.7);color:#fff;border-radius:4px;padding:.25rem .75rem;font:inherit;cursor:pointer}
nav.main{background:#fff;border-bottom:1px solid var(--line);overflow-x:auto}
nav.main ul{list-style:none;margin:0 auto;padding:0 1rem;display:flex;gap:.25rem;max-width:80rem}
nav.main a{display:block;padding:.75rem .9rem;color:var(--ink);text-decoration:none;border-bottom:3px solid transparent;white-space:nowrap}
nav.main a[aria-current=page]{border-bottom-color:var(--brand);font-weight:600}
main{max-width:80rem;margin:0 auto;padding:1.25rem 1rem 3rem}
h1{font-size:1.6rem;margin:.25rem 0 1rem}
h2{font-size:1.2rem;margin:1.5rem 0 .75rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}
.figure{font-size:1.8rem;font-weight:700;margin:.25rem 0}
.chart{margin:0}.chart svg{display:block;width:100%;height:auto;max-width:720px}.key.net{color:#1f6f43}.key.tax{color:#b35c00}
.muted{color:var(--muted)}
.notice{border-left:5px solid var(--ok);background:#eaf6ee;padding:.75rem 1rem;margin:0 0 1rem;border-radius:4px}
.error{border-left:5px solid var(--danger);background:#fdecee;padding:.75rem 1rem;margin:0 0 1rem;border-radius:4px}
.warning{border-left:5px solid var(--warn);background:#fff5e0;padding:.75rem 1rem;margin:0 0 1rem;border-radius:4px}
.error ul,.notice ul{margin:.25rem 0 0;padding-left:1.25rem}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.hint{display:block;font-weight:400;color:var(--muted);font-size:.9rem}
input[type=text],input[type=date],input[type=email],input[type=password],input[type=search],input[type=number],input[type=url],select{width:100%;max-width:28rem;padding:.55rem .6rem;border:2px solid var(--ink);border-radius:4px;font:inherit;background:#fff;color:var(--ink)}
select.wide{max-width:40rem}
input[aria-invalid=true]{border-color:var(--danger)}
.field-error{color:var(--danger);margin:.25rem 0;font-weight:600}
button,.button{display:inline-block;background:var(--brand);color:#fff;border:2px solid var(--brand);border-radius:4px;padding:.5rem 1rem;font:inherit;font-weight:600;cursor:pointer;text-decoration:none;margin:.75rem .5rem 0 0}
button.secondary,.button.secondary{background:#fff;color:var(--brand)}
button.danger{background:var(--danger);border-color:var(--danger)}
button.small{padding:.2rem .6rem;margin:0;font-size:.9rem}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.75rem 0;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .25rem}
.checks{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.1rem 1rem}
.checks label{font-weight:400;margin:.2rem 0;display:flex;gap:.4rem;align-items:center}
.checks input{width:1.1rem;height:1.1rem}
.table-wrap{overflow-x:auto;background:#fff;border:1px solid var(--line);border-radius:8px;margin:0 0 1rem}
table{border-collapse:collapse;width:100%;min-width:36rem;font-size:.875rem}
caption{text-align:left;padding:.75rem 1rem;font-weight:600}
th,td{text-align:left;padding:.5rem;border-top:1px solid var(--line);vertical-align:top}
td .muted{overflow-wrap:anywhere}
td:first-child{min-width:10rem}
th{background:#f0f3f6;font-weight:600}
td.nowrap,span.nowrap{white-space:nowrap}
.wrap{overflow-wrap:anywhere}
ul.pay-items{margin:.25rem 0 0;padding-left:1rem;font-size:.85rem}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tfoot td{font-weight:700;background:#f0f3f6}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.85rem;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.badge.ok{color:var(--ok);background:#eaf6ee}.badge.off{color:var(--muted);background:#f0f3f6}.badge.warn{color:var(--warn);background:#fff5e0}.badge.bad{color:var(--danger);background:#fdecee}.badge.info{color:var(--info);background:#e8f1fb}
.token{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.token code{font-size:1rem;word-break:break-all;background:#f0f3f6;border:1px solid var(--line);padding:.5rem;border-radius:4px;flex:1 1 20rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.inline-form{display:inline}
.pager{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
.list-edit{list-style:none;padding:0;margin:0}
.list-edit li{display:flex;justify-content:space-between;gap:1rem;align-items:center;padding:.35rem 0;border-top:1px solid var(--line)}
.auth{max-width:28rem;margin:2rem auto}
footer{color:var(--muted);font-size:.85rem;text-align:center;padding:1rem}
@media (max-width:40rem){h1{font-size:1.35rem}main{padding:1rem .75rem 2rem}dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}.card{padding:.75rem}}
`;

// Copy buttons (with a fallback where the Clipboard API is unavailable, e.g. plain http) and
// confirmation prompts on forms marked data-confirm. Everything works without it too.
export const CONSOLE_JS = `
document.addEventListener('click', function (event) {
  var button = event.target.closest('[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source) return;
  var text = source.textContent;
  var status = document.getElementById(button.getAttribute('data-copy') + '-status');
  function done(ok) { if (status) status.textContent = ok ? 'Copied to the clipboard.' : 'Copy failed: select the token and copy it by hand.'; }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
  } else {
    var range = document.createRange(); range.selectNodeContents(source);
    var selection = window.getSelection(); selection.removeAllRanges(); selection.addRange(range);
    var ok = false; try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
    done(ok);
  }
});
document.addEventListener('submit', function (event) {
  var message = event.target.getAttribute('data-confirm');
  if (message && !window.confirm(message)) event.preventDefault();
});
// A processing payroll run: refresh its paystubs' status badges and counts every 2 s from the
// run's status JSON, and load the finished page once the run has ended (the Refresh link is the
// same without this script).
(function () {
  var box = document.querySelector('[data-poll]');
  if (!box || !window.fetch) return;
  function tick() {
    fetch(box.getAttribute('data-poll'), { credentials: 'same-origin', headers: { accept: 'application/json' } })
      .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.json(); })
      .then(function (data) {
        data.paystubs.forEach(function (stub) {
          var cell = document.querySelector('[data-paystub="' + stub.id + '"]');
          if (!cell) return;
          var badge = cell.querySelector('.badge');
          badge.className = 'badge ' + stub.badge[0];
          badge.textContent = stub.badge[1];
          var reason = cell.querySelector('.reason');
          if (reason) reason.textContent = stub.failure_reason ? ' ' + stub.failure_reason : '';
        });
        Object.keys(data.counts).forEach(function (status) {
          var count = document.querySelector('[data-count="' + status + '"]');
          if (count) count.textContent = data.counts[status];
        });
        if (data.status !== 'processing') window.location.assign(box.getAttribute('data-done'));
        else setTimeout(tick, 2000);
      })
      .catch(function () { setTimeout(tick, 5000); });
  }
  setTimeout(tick, 2000);
})();
`;

const version = (text: string) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 12);
export const CSS_PATH = `/console/assets/console.${version(CONSOLE_CSS)}.css`;
export const JS_PATH = `/console/assets/console.${version(CONSOLE_JS)}.js`;
