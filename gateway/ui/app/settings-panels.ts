/**
 * The sign-in form (a bearer token, for a gateway run with `--auth`) and the codec endpoint form.
 * @module
 */
import { h } from './dom.js';
import { codecSettings, setBearerToken, setCodecSettings } from './session.js';

/** The sign-in form; `why` is the gateway's 401 message. Calls `done` once a token is kept. */
export function signInPanel(why: string, done: () => void): HTMLElement {
  const token = h('textarea', { id: 'token', rows: 4, cols: 80, placeholder: 'eyJhbGciOi…', autocomplete: 'off', spellcheck: false });
  const submit = (event: Event) => {
    event.preventDefault();
    if (!token.value.trim()) return;
    setBearerToken(token.value);
    done();
  };
  return h(
    'form',
    { id: 'sign-in', class: 'actions', onsubmit: submit },
    h('h2', {}, 'Sign in'),
    h('p', { class: 'error' }, why),
    h('p', {}, 'Paste a bearer token (a JWT your identity provider issued). It is kept for this browser tab only.'),
    token,
    h('div', {}, h('button', { type: 'submit', id: 'sign-in-submit' }, 'Sign in')),
  );
}

/** The codec endpoint form: where to decode encrypted payloads, and the endpoint's own token. */
export function codecPanel(done: () => void): HTMLElement {
  const saved = codecSettings();
  const endpoint = h('input', { id: 'codec-endpoint', size: 50, placeholder: 'http://localhost:8888', value: saved?.endpoint ?? '' });
  const token = h('input', { id: 'codec-token', type: 'password', size: 30, value: saved?.token ?? '' });
  const save = (event: Event) => {
    event.preventDefault();
    setCodecSettings(endpoint.value ? { endpoint: endpoint.value, token: token.value } : undefined);
    done();
  };
  return h(
    'form',
    { id: 'codec-settings', class: 'actions', onsubmit: save },
    h('h2', {}, 'Codec endpoint'),
    h('p', {}, 'Encrypted values are shown decoded through your codec endpoint (logbook codec-server), called from this browser: the engine never holds keys. Leave empty to show them encoded.'),
    h('label', {}, 'endpoint ', endpoint),
    h('label', {}, ' token ', token),
    h('div', {}, h('button', { type: 'submit', id: 'codec-save' }, 'Save')),
  );
}
