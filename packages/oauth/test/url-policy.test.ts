// The URL policy: hosts classified textually, peer URLs and redirect URIs checked.
import { describe, expect, it } from 'vitest';
import {
  InsecureUrlError,
  OAuthConfigError,
  checkClientIdMetadataUrl,
  checkPeerUrl,
  checkRedirectUri,
  classifyHost,
} from '../src/index.js';

describe('classifyHost (textual, never resolved)', () => {
  it.each([
    ['localhost', 'loopback'],
    ['api.localhost', 'loopback'],
    ['127.0.0.1', 'loopback'],
    ['127.5.6.7', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['[fd12::1]', 'private'],
    ['[fc00::1]', 'private'],
    ['[::ffff:a00:1]', 'private'],
    ['169.254.169.254', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['224.0.0.1', 'reserved'],
    ['172.32.0.1', 'public'],
    ['8.8.8.8', 'public'],
    ['[2001:db8::1]', 'public'],
    ['auth.example.com', 'name'],
  ])('%s is %s', (host, cls) => expect(classifyHost(host)).toBe(cls));

  it('sees through the other spellings of an IPv4 address, since URL normalizes them', () => {
    expect(classifyHost(new URL('https://2130706433/').hostname)).toBe('loopback');
    expect(classifyHost(new URL('https://0x0a000001/').hostname)).toBe('private');
  });
});

describe('checkPeerUrl', () => {
  const remote = { localStack: false };
  const local = { localStack: true };
  it('accepts HTTPS to a public name or address', () => {
    expect(checkPeerUrl('https://auth.example.com/x', 'issuer', remote).host).toBe('auth.example.com');
    expect(checkPeerUrl('https://8.8.8.8/x', 'issuer', remote).host).toBe('8.8.8.8');
  });
  it.each([
    'http://auth.example.com/',
    'https://127.0.0.1/',
    'https://localhost/',
    'https://10.0.0.1/',
    'https://169.254.169.254/',
    'https://[fe80::1]/',
    'https://user:pw@auth.example.com/',
    'https://auth.example.com/#frag',
    'ftp://auth.example.com/',
    'not a url',
  ])('refuses %s for a remote server', (url) =>
    expect(() => checkPeerUrl(url, 'issuer', remote)).toThrow(InsecureUrlError),
  );
  it('lets a local stack use loopback, plain HTTP included, but nothing private or link-local', () => {
    expect(checkPeerUrl('http://127.0.0.1:9000/', 'issuer', local).port).toBe('9000');
    expect(checkPeerUrl('http://localhost:9000/', 'issuer', local).hostname).toBe('localhost');
    expect(checkPeerUrl('https://auth.example.com/', 'issuer', local).hostname).toBe('auth.example.com');
    expect(() => checkPeerUrl('http://10.0.0.1/', 'issuer', local)).toThrow(InsecureUrlError);
    expect(() => checkPeerUrl('http://169.254.169.254/', 'issuer', local)).toThrow(InsecureUrlError);
    expect(() => checkPeerUrl('http://auth.example.com/', 'issuer', local)).toThrow(InsecureUrlError);
  });
});

describe('checkRedirectUri', () => {
  it.each([
    'http://127.0.0.1/callback',
    'http://127.0.0.1:8080/cb',
    'http://localhost:3000/callback',
    'http://[::1]/cb',
    'https://app.example.com/cb',
    'com.example.app:/oauth/cb',
  ])('accepts %s', (uri) => expect(() => checkRedirectUri(uri)).not.toThrow());
  it.each([
    'http://app.example.com/callback',
    'http://10.0.0.1/cb',
    'javascript:alert(1)',
    'data:text/html,x',
    'file:///tmp/x',
    'myapp:/cb',
    'https://app.example.com/cb#f',
  ])('refuses %s', (uri) => expect(() => checkRedirectUri(uri)).toThrow(InsecureUrlError));
});

describe('checkClientIdMetadataUrl', () => {
  it('accepts an HTTPS URL with a path', () => {
    expect(checkClientIdMetadataUrl('https://conformance-test.local/client-metadata.json')).toBe(
      'https://conformance-test.local/client-metadata.json',
    );
  });
  it.each([
    'http://app.example/client.json',
    'https://app.example',
    'https://app.example/',
    'https://app.example/a/../client.json',
    'https://app.example/client.json#x',
    'https://u:p@app.example/c.json',
  ])('refuses %s', (url) => expect(() => checkClientIdMetadataUrl(url)).toThrow(OAuthConfigError));
});
