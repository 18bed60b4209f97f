'use strict';
// Accounting exports: the CSV layout of the spec, the accounting-v2 entries, and their equality.

const { startTestSandbox, api, control, token } = require('./helpers');

const HEADER = 'EcritureDate;ContractID;AxeAnalytique1;SectionAnalytique1;CodeAnalytique1;AxeAnalytique2;SectionAnalytique2;CodeAnalytique2;'
  + 'AxeAnalytique3;SectionAnalytique3;CodeAnalytique3;AxeAnalytique4;SectionAnalytique4;CodeAnalytique4;EmployeLib;CompteNum;CompteLib;Debit;Credit';

/** Splits one CSV line on `;` outside quotes; quoted fields come back as {quoted: true, value}. */
function parseCsvLine(line) {
  const fields = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        if (i >= line.length) throw new Error(`unterminated quote in ${line}`);
        if (line[i] === '"' && line[i + 1] === '"') {
          value += '"';
          i += 2;
        } else if (line[i] === '"') {
          i += 1;
          break;
        } else {
          value += line[i];
          i += 1;
        }
      }
      if (i < line.length && line[i] !== ';') throw new Error(`garbage after a quoted field in ${line}`);
      fields.push({ quoted: true, value });
    } else {
      const end = line.indexOf(';', i) === -1 ? line.length : line.indexOf(';', i);
      fields.push({ quoted: false, value: line.slice(i, end) });
      i = end;
    }
    i += 1;
  }
  return fields;
}

/** The CSV fields an accounting-v2 entry must give (null = empty). */
function expectedCsvFields(entry) {
  const [year, month, day] = entry.operationDate.split('-');
  const analytic = [0, 1, 2, 3].flatMap((n) => {
    const code = entry.analyticCodes[n] || { type: null, code: null, value: null };
    return [code.type, code.value, code.code];
  });
  return [
    `${day}/${month}/${year}`, entry.contractId, ...analytic, entry.employeeFullName, entry.accountId, entry.accountName,
    entry.debit === null ? null : entry.debit.toFixed(2), entry.credit === null ? null : entry.credit.toFixed(2),
  ];
}

let sandbox;
let fullToken;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
  fullToken = token(sandbox, 'FR1001');
});

async function csvText(companyId, month, t = fullToken) {
  const response = await api(sandbox, `/companies/${companyId}/accounting?date=${month}`, { token: t });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

async function v2(companyId, month, t = fullToken) {
  const response = await api(sandbox, `/companies/${companyId}/accounting-v2?date=${month}`, { token: t });
  expect(response.status).toBe(200);
  return response.json();
}

describe('accounting CSV layout', () => {
  test('exact header, ";" separator, "\\n"-terminated lines, no CR, no BOM', async () => {
    const text = await csvText('FR1001', '202607');
    expect(text.startsWith(`${HEADER}\n`)).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
    expect(text).not.toContain('\r');
    expect(text.charCodeAt(0)).not.toBe(0xfeff);
    const lines = text.slice(0, -1).split('\n');
    expect(lines.length).toBe(28);
    for (const line of lines.slice(1)) expect(parseCsvLine(line)).toHaveLength(19);
  });

  test('text values quoted with inner quotes doubled; ";" inside quotes; accents; empty values empty; dates DD/MM/YYYY; amounts unquoted with two decimals; exactly one of Debit/Credit', async () => {
    const text = await csvText('FR1001', '202608');
    expect(text).toContain('"Lyon 2e ""Presqu\'île"""');
    expect(text).toContain('"Salaires; primes et indemnités"');
    expect(text).toContain('"Jean-Noël ""Jeannot"" Brûlé"');
    expect(text).toContain(';;');
    for (const line of text.slice(0, -1).split('\n').slice(1)) {
      const fields = parseCsvLine(line);
      expect(fields[0]).toEqual({ quoted: true, value: '31/08/2026' });
      for (const field of fields.slice(0, 17)) {
        expect(field.quoted || field.value === '').toBe(true);
        if (field.quoted) expect(field.value).not.toBe('');
      }
      const [debit, credit] = fields.slice(17).map((field) => field.value);
      expect(fields[17].quoted || fields[18].quoted).toBe(false);
      expect([debit, credit].filter((value) => value !== '')).toHaveLength(1);
      for (const amount of [debit, credit]) if (amount) expect(amount).toMatch(/^\d+\.\d{2}$/);
    }
  });

  test('the CSV carries exactly the accounting-v2 data, line for line', async () => {
    for (const month of ['202607', '202610']) {
      const [text, entries] = await Promise.all([csvText('FR1001', month), v2('FR1001', month)]);
      const rows = text.slice(0, -1).split('\n').slice(1).map((line) => parseCsvLine(line).map((field) => (field.value === '' ? null : field.value)));
      expect(rows).toEqual(entries.map(expectedCsvFields));
    }
  });
});

describe('accounting-v2 entries', () => {
  test('every entry has exactly the spec fields with the spec types', async () => {
    const entries = await v2('FR1001', '202609');
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(['accountId', 'accountName', 'analyticCodes', 'contractId', 'credit', 'debit', 'employeeFullName', 'operationDate']);
      expect(entry.operationDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(entry.accountId).toMatch(/^\d+$/);
      expect(typeof entry.accountName).toBe('string');
      expect([entry.debit, entry.credit].filter((amount) => amount === null)).toHaveLength(1);
      for (const amount of [entry.debit, entry.credit]) if (amount !== null) expect(Number.isInteger(Math.round(amount * 100))).toBe(true);
      for (const code of entry.analyticCodes) {
        expect(Object.keys(code).sort()).toEqual(['code', 'type', 'value']);
        for (const value of Object.values(code)) expect(value === null || typeof value === 'string').toBe(true);
      }
    }
    // Both employee lines and company lines (no employee, contract or analytics) exist; some analytic values are null.
    expect(entries.some((entry) => entry.contractId === null && entry.employeeFullName === null && entry.analyticCodes.length === 0)).toBe(true);
    expect(entries.some((entry) => entry.analyticCodes.some((code) => code.code === null))).toBe(true);
    expect(entries.some((entry) => entry.analyticCodes.length === 4)).toBe(true);
  });

  test('debits and credits balance', async () => {
    const entries = await v2('FR1001', '202607');
    const cents = (key) => entries.reduce((sum, entry) => sum + Math.round((entry[key] || 0) * 100), 0);
    expect(cents('debit')).toBe(cents('credit'));
  });

  test('FR1002 has no analytic settings: no analytic codes anywhere', async () => {
    const entries = await v2('FR1002', '202607', token(sandbox, 'FR1002'));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) expect(entry.analyticCodes).toEqual([]);
  });

  test('months differ, and each month is deterministic', async () => {
    const [july, august] = await Promise.all([v2('FR1001', '202607'), v2('FR1001', '202608')]);
    expect(july).not.toEqual(august);
    expect(await v2('FR1001', '202607')).toEqual(july);
  });
});

describe('months without a completed payroll', () => {
  test.each(['202611', '202612', '202501'])('%s: 404 for CSV and v2, naming the month', async (month) => {
    for (const path of ['accounting', 'accounting-v2']) {
      const response = await api(sandbox, `/companies/FR1001/${path}?date=${month}`, { token: fullToken });
      expect(response.status).toBe(404);
      const body = await response.json();
      expect(body).toMatchObject({ code: 404, error: 'Ressource not found' });
      expect(body.details).toContain(`No completed payroll for ${month}`);
    }
  });

  test('once the month is switched to completed, the exports exist', async () => {
    await control(sandbox, '/payroll-status', { method: 'POST', body: { companyId: 'FR1001', month: '202611', status: 'completed' } });
    expect((await v2('FR1001', '202611')).length).toBe(27);
    expect(await csvText('FR1001', '202611')).toContain('"30/11/2026"');
  });
});

describe('size knob accountingLines', () => {
  test('thousands of lines, CSV and v2 still equal', async () => {
    const big = await startTestSandbox({ accountingLines: 5000 });
    try {
      const t = big.issueToken({ companyId: 'FR1001', scopes: ['accounting:read'] }).access_token;
      const [csvResponse, v2Response] = await Promise.all([
        api(big, '/companies/FR1001/accounting?date=202607', { token: t }),
        api(big, '/companies/FR1001/accounting-v2?date=202607', { token: t }),
      ]);
      const text = await csvResponse.text();
      const entries = await v2Response.json();
      expect(entries).toHaveLength(5000);
      expect(text.split('\n')).toHaveLength(5002); // header + 5000 lines + '' after the last newline
      const rows = text.slice(0, -1).split('\n').slice(1).map((line) => parseCsvLine(line).map((field) => (field.value === '' ? null : field.value)));
      expect(rows).toEqual(entries.map(expectedCsvFields));
      expect(new Set(entries.map((entry) => entry.contractId)).size).toBeGreaterThan(900);
    } finally {
      await big.close();
    }
  });

  test('reset can change the knob, and reset without it goes back to the start value', async () => {
    await control(sandbox, '/reset', { method: 'POST', body: { accountingLines: 12 } });
    const t = token(sandbox, 'FR1001');
    expect(await v2('FR1001', '202607', t)).toHaveLength(12);
    await control(sandbox, '/reset', { method: 'POST' });
    expect(await v2('FR1001', '202607', token(sandbox, 'FR1001'))).toHaveLength(27);
  });
});
