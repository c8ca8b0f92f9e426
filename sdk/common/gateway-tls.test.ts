import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from 'undici';
import { GatewayAccess } from './gateway-access.js';
import { checkTlsScheme, tlsDispatcher, tlsFailureOf } from './gateway-tls.js';

/** How Temporal's `tls` option becomes a dispatcher, a scheme rule and an error message. */

describe('the tls option', () => {
  test("needs a dispatcher only for settings beyond Node's defaults", () => {
    assert.equal(tlsDispatcher(undefined), undefined);
    assert.equal(tlsDispatcher(true), undefined);
    assert.equal(tlsDispatcher(null), undefined);
    assert.equal(tlsDispatcher({}), undefined);
    assert.ok(tlsDispatcher({ serverNameOverride: 'gateway.internal' }) instanceof Agent);
    assert.ok(tlsDispatcher({ serverRootCACertificate: Buffer.from('pem') }) instanceof Agent);
  });

  test('contradicting the address scheme is a TypeError, and so is a GatewayAccess made that way', () => {
    assert.throws(() => checkTlsScheme('http://127.0.0.1:8233', true), /is plain http but tls is set/);
    assert.throws(() => checkTlsScheme('https://127.0.0.1:8233', false), /is https but tls is false/);
    assert.doesNotThrow(() => checkTlsScheme('https://127.0.0.1:8233', undefined));
    assert.doesNotThrow(() => checkTlsScheme('http://127.0.0.1:8233', null));
    assert.throws(() => new GatewayAccess(['https://a:1', 'http://b:1'], { tls: {} }), /http:\/\/b:1 is plain http/);
  });

  test("a fetch failure is described as a TLS one only when its cause's code is a TLS or certificate code", () => {
    const failed = (code: string, message: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
    const described = tlsFailureOf(failed('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'), 'https://g:1');
    assert.equal(
      described,
      "the TLS handshake with https://g:1 failed: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE). If the gateway's certificate is signed by a private CA, trust it with tls: { serverRootCACertificate }; if it was issued for another name than the address's host, pass tls: { serverNameOverride }",
    );
    assert.match(tlsFailureOf(failed('ERR_TLS_CERT_ALTNAME_INVALID', 'altnames'), 'https://g:1', { ca: '--tls-ca-path', serverName: '--tls-server-name' })!, /trust it with --tls-ca-path; .*pass --tls-server-name$/);
    assert.equal(tlsFailureOf(failed('ECONNREFUSED', 'connect ECONNREFUSED'), 'https://g:1'), undefined);
    assert.equal(tlsFailureOf(new Error('no cause'), 'https://g:1'), undefined);
  });
});
