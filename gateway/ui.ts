/**
 * The dev server's web UI: one self-contained page over the HTTP API — start a workflow, look one
 * up, see its state and history, send a signal, cancel or terminate it.
 */
export const UI_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Logbook</title>
<style>
 body{font:14px system-ui,sans-serif;margin:2rem;max-width:1100px;color:#222}
 h1{font-size:1.4rem} fieldset{margin:0 0 1rem;border:1px solid #ccc;border-radius:6px}
 input,textarea{font:13px ui-monospace,monospace;width:100%;box-sizing:border-box;margin:.2rem 0}
 button{margin:.3rem .3rem 0 0} table{border-collapse:collapse;width:100%;font-size:12px}
 td,th{border-bottom:1px solid #eee;text-align:left;padding:.25rem;vertical-align:top}
 pre{background:#f6f6f6;padding:.5rem;overflow:auto;max-height:22rem} .err{color:#b00}
</style></head><body>
<h1>Logbook — durable workflows on Kafka</h1>
<fieldset><legend>Start a workflow</legend>
 <input id="wid" value="order-1" placeholder="workflow id">
 <input id="wtype" value="order" placeholder="workflow type">
 <input id="queue" value="orders" placeholder="task queue">
 <textarea id="args" rows="3">[{"orderId":"1","sku":"book","quantity":1,"amountCents":2500,"phone":"+100","packTimeout":"1h","ratingDelay":"5s"}]</textarea>
 <button id="start">Start</button>
</fieldset>
<fieldset><legend>Workflow</legend>
 <input id="lookup" value="order-1" placeholder="workflow id">
 <button id="show">Show</button>
 <input id="signal" value="sellerPacked" placeholder="signal name">
 <input id="sigargs" value='[{"parcelId":"p-1"}]' placeholder="signal args (JSON array)">
 <button id="send">Signal</button><button id="cancel">Cancel</button><button id="terminate">Terminate</button>
</fieldset>
<div id="out"></div>
<script>
const api = '/api/v1/namespaces/default/workflows';
const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
async function call(method, url, body) {
  const r = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await r.json();
  if (!r.ok) throw new Error(json.code + ': ' + json.message);
  return json;
}
function show(html) { $('out').innerHTML = html; }
function fail(e) { show('<p class="err">' + esc(e.message) + '</p>'); }
async function render() {
  const id = $('lookup').value;
  try {
    const state = await call('GET', api + '/' + encodeURIComponent(id));
    const history = await call('GET', api + '/' + encodeURIComponent(id) + '/history');
    const rows = history.events.map((e) => '<tr><td>' + e.eventId + '</td><td>' + new Date(e.eventTime).toISOString() +
      '</td><td>' + esc(e.attributes.type) + '</td><td><pre>' + esc(JSON.stringify(e.attributes, null, 1)) + '</pre></td></tr>').join('');
    show('<h2>' + esc(id) + ' — ' + esc(state.executionInfo.status) + '</h2><pre>' + esc(JSON.stringify(state.executionInfo, null, 2)) +
      '</pre><table><tr><th>#</th><th>time</th><th>event</th><th>attributes</th></tr>' + rows + '</table>');
  } catch (e) { fail(e); }
}
$('start').onclick = async () => {
  try {
    await call('POST', api, { workflowId: $('wid').value, workflowType: $('wtype').value, taskQueue: $('queue').value, args: JSON.parse($('args').value) });
    $('lookup').value = $('wid').value; setTimeout(render, 300);
  } catch (e) { fail(e); }
};
$('show').onclick = render;
$('send').onclick = async () => { try { await call('POST', api + '/' + encodeURIComponent($('lookup').value) + '/signals/' + encodeURIComponent($('signal').value), { args: JSON.parse($('sigargs').value) }); setTimeout(render, 300); } catch (e) { fail(e); } };
$('cancel').onclick = async () => { try { await call('POST', api + '/' + encodeURIComponent($('lookup').value) + '/cancel', {}); setTimeout(render, 300); } catch (e) { fail(e); } };
$('terminate').onclick = async () => { try { await call('POST', api + '/' + encodeURIComponent($('lookup').value) + '/terminate', { reason: 'from the UI' }); setTimeout(render, 300); } catch (e) { fail(e); } };
</script></body></html>`;
