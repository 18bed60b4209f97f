'use strict';
// Payment files: binary, not UTF-8, deterministic, only for completed months, and the size knob.

const { startTestSandbox, api, control, token } = require('./helpers');

let sandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.reset());

async function fetchFile(target, companyId, month) {
  const response = await api(target, `/companies/${companyId}/payment-files?date=${month}`, {
    token: target.issueToken({ companyId, scopes: ['payment-files:read'] }).access_token,
  });
  return { response, bytes: response.status === 200 ? Buffer.from(await response.arrayBuffer()) : null };
}

test.each(['FR1001', 'FR1002', 'ES2001', 'GB3001'])('%s: application/octet-stream, no Content-Disposition, bytes that are not valid UTF-8', async (companyId) => {
  const { response, bytes } = await fetchFile(sandbox, companyId, '202607');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/octet-stream');
  expect(response.headers.get('content-disposition')).toBeNull();
  expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow(/not valid/);
  // Latin-1 text: the company name (non-Latin-1 letters become '?') and the accented reference.
  const text = bytes.toString('latin1');
  expect(text).toContain('Réf. paie 202607');
  expect(text).toContain(sandbox.seed.company(companyId).name.replace(/[^\u0000-\u00ff]/g, '?').slice(0, 24));
  expect(text).toMatch(new RegExp(`${sandbox.seed.company(companyId).country}\\d{2}[A-Z0-9]{10,30}`));
  expect(bytes.equals(sandbox.seed.paymentFile(companyId, '202607'))).toBe(true);
});

test('holds one transfer per active employee with valid IBAN check digits', async () => {
  const { bytes } = await fetchFile(sandbox, 'FR1001', '202608');
  const ibans = bytes.toString('latin1').match(/FR\d{25}/g);
  expect(ibans).toHaveLength(6); // payer + 5 employees
  for (const iban of ibans) {
    const numeric = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
    expect(BigInt(numeric) % 97n).toBe(1n);
  }
  expect(bytes.toString('latin1')).toContain('Salaires août 2026');
});

test('deterministic per company and month, different across months', async () => {
  const a = (await fetchFile(sandbox, 'GB3001', '202609')).bytes;
  const b = (await fetchFile(sandbox, 'GB3001', '202609')).bytes;
  const c = (await fetchFile(sandbox, 'GB3001', '202610')).bytes;
  expect(a.equals(b)).toBe(true);
  expect(a.equals(c)).toBe(false);
});

test('not completed month: 404 saying so; completed through control: 200', async () => {
  const { response } = await fetchFile(sandbox, 'ES2001', '202612');
  expect(response.status).toBe(404);
  expect((await response.json()).details).toContain('No completed payroll for 202612');
  await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'ES2001', month: '202612', status: 'completed' } });
  expect((await fetchFile(sandbox, 'ES2001', '202612')).response.status).toBe(200);
  await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'ES2001', month: '202607', status: 'not_completed' } });
  expect((await fetchFile(sandbox, 'ES2001', '202607')).response.status).toBe(404);
});

test('size knob: tens of MB, padded deterministically from the real content', async () => {
  const size = 30 * 1024 * 1024;
  const big = await startTestSandbox({ paymentFileBytes: size });
  try {
    const { bytes } = await fetchFile(big, 'FR1001', '202607');
    expect(bytes.length).toBe(size);
    const base = sandbox.seed.paymentFile('FR1001', '202607');
    expect(bytes.subarray(0, base.length).equals(base)).toBe(true);
    expect(bytes.subarray(base.length, 2 * base.length).equals(base)).toBe(true);
    expect(bytes.equals(big.seed.paymentFile('FR1001', '202607'))).toBe(true);
  } finally {
    await big.close();
  }
});

test('reset can set the size knob; a size below the natural size leaves the file whole', async () => {
  await control(sandbox, '/reset', { method: 'POST', body: { paymentFileBytes: 100000 } });
  expect((await fetchFile(sandbox, 'FR1001', '202607')).bytes.length).toBe(100000);
  await control(sandbox, '/reset', { method: 'POST', body: { paymentFileBytes: 10 } });
  const natural = (await fetchFile(sandbox, 'FR1001', '202607')).bytes;
  expect(natural.length).toBeGreaterThan(10);
  await control(sandbox, '/reset', { method: 'POST' });
  expect((await fetchFile(sandbox, 'FR1001', '202607')).bytes.equals(natural)).toBe(true);
});
