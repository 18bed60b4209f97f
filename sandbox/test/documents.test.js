'use strict';
// UK document listings, spec rule 2 (download only what a listing returned), and PDF validity.

const { startTestSandbox, api, control, token } = require('./helpers');

const LISTING_KEYS = ['documentId', 'createdAt', 'contractId', 'type', 'year', 'month', 'name', 'documentUrl'];

/** Checks the structure a PDF reader relies on; returns the text of the page content. */
function checkPdf(bytes) {
  const text = bytes.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)[1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(startxref));
  expect(Number(first)).toBe(0);
  const entriesStart = startxref + `xref\n0 ${count}\n`.length;
  for (let n = 0; n < Number(count); n += 1) {
    const entry = text.slice(entriesStart + n * 20, entriesStart + (n + 1) * 20);
    expect(entry).toMatch(/^\d{10} \d{5} [nf]\r\n$/);
    if (n === 0) {
      expect(entry).toBe('0000000000 65535 f\r\n');
    } else {
      const offset = Number(entry.slice(0, 10));
      expect(text.slice(offset, offset + `${n} 0 obj`.length)).toBe(`${n} 0 obj`);
    }
  }
  expect(text).toMatch(new RegExp(`trailer\\n<< /Size ${count} /Root 1 0 R`));
  const [, length] = /<< \/Length (\d+) >>\nstream\n/.exec(text);
  const streamStart = text.indexOf('stream\n') + 'stream\n'.length;
  expect(text.slice(streamStart + Number(length), streamStart + Number(length) + '\nendstream'.length)).toBe('\nendstream');
  return text.slice(streamStart, streamStart + Number(length));
}

let sandbox;
let gbToken;
beforeAll(async () => {
  sandbox = await startTestSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.reset();
  gbToken = token(sandbox, 'GB3001');
});

async function listIncomeTaxes(t = gbToken) {
  return (await (await api(sandbox, '/companies/GB3001/income-taxes-documents', { token: t })).json()).documents;
}

async function listAutoEnrolment(t = gbToken) {
  return (await (await api(sandbox, '/companies/GB3001/auto-enrolment-documents', { token: t })).json()).documents;
}

function download(documentId, t = gbToken) {
  return api(sandbox, `/companies/GB3001/documents/${documentId}`, { token: t });
}

describe('listings', () => {
  test('income-tax documents: every spec field plus name, documentUrl with the sample shape', async () => {
    const documents = await listIncomeTaxes();
    expect(documents.map((document) => document.documentId)).toEqual(['gb3001-p60-2025-001', 'gb3001-p60-2025-002', 'gb3001-p11d-2025-004', 'gb3001-p45-2026-005']);
    for (const document of documents) {
      expect(Object.keys(document)).toEqual(LISTING_KEYS);
      expect(['P60', 'P45', 'P11D']).toContain(document.type);
      expect(new Date(document.createdAt).toISOString()).toBe(document.createdAt);
      expect(document.year).toMatch(/^\d{4}$/);
      expect(document.month).toMatch(/^\d{2}$/);
      expect(document.documentUrl).toBe(`/companies/GB3001/contracts/${document.contractId}/documents/${document.documentId}`);
      expect(document.name).toMatch(/^[A-Za-z0-9-]+\.pdf$/);
    }
    expect(documents[0].name).toBe('P60-2025-Jane-Doe.pdf');
  });

  test('auto-enrolment documents: same fields without type', async () => {
    const documents = await listAutoEnrolment();
    expect(documents).toHaveLength(2);
    for (const document of documents) expect(Object.keys(document)).toEqual(LISTING_KEYS.filter((key) => key !== 'type'));
  });
});

describe('GET_document_by_id and spec rule 2', () => {
  test('before any listing every document is 404; a listing opens exactly its own documents', async () => {
    expect((await download('gb3001-p60-2025-001')).status).toBe(404);
    expect((await download('gb3001-ae-2026-001')).status).toBe(404);
    await listIncomeTaxes();
    expect((await download('gb3001-p60-2025-001')).status).toBe(200);
    const notYet = await download('gb3001-ae-2026-001');
    expect(notYet.status).toBe(404);
    expect(await notYet.json()).toEqual({ code: 404, error: 'Ressource not found', details: 'The provided id is wrong' });
    await listAutoEnrolment();
    expect((await download('gb3001-ae-2026-001')).status).toBe(200);
  });

  test('a document no listing returns can never be fetched; unknown ids are 404', async () => {
    await listIncomeTaxes();
    await listAutoEnrolment();
    expect((await download('gb3001-payslip-202607-001')).status).toBe(404);
    expect((await download('no-such-document')).status).toBe(404);
    expect(sandbox.seed.document('GB3001', 'gb3001-payslip-202607-001').subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('reset forgets what was listed', async () => {
    await listIncomeTaxes();
    sandbox.reset();
    expect((await download('gb3001-p60-2025-001', token(sandbox, 'GB3001'))).status).toBe(404);
  });

  test('the documentUrl path itself downloads the same bytes; a wrong contract in it is 404', async () => {
    const [first] = await listIncomeTaxes();
    const viaUrl = await api(sandbox, first.documentUrl, { token: gbToken });
    expect(viaUrl.status).toBe(200);
    const viaId = await download(first.documentId);
    expect(Buffer.from(await viaUrl.arrayBuffer()).equals(Buffer.from(await viaId.arrayBuffer()))).toBe(true);
    const wrongContract = first.documentUrl.replace(first.contractId, 'ctr_gb3001_002');
    expect((await api(sandbox, wrongContract, { token: gbToken })).status).toBe(404);
  });

  test('application/pdf with Content-Disposition naming the file as the listing does', async () => {
    const documents = [...(await listIncomeTaxes()), ...(await listAutoEnrolment())];
    for (const document of documents) {
      const response = await download(document.documentId);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${document.name}"`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.equals(sandbox.seed.document('GB3001', document.documentId))).toBe(true);
    }
  });

  test('either scope suffices for any listed document', async () => {
    await listIncomeTaxes();
    await listAutoEnrolment(token(sandbox, 'GB3001', ['pension:read'], { kind: 'apiKey' }));
    const pensionOnly = token(sandbox, 'GB3001', ['pension:read']);
    expect((await download('gb3001-p60-2025-001', pensionOnly)).status).toBe(200);
    const payslipsOnly = token(sandbox, 'GB3001', ['contracts:payslips:read']);
    expect((await download('gb3001-ae-2026-003', payslipsOnly)).status).toBe(200);
  });
});

describe('PDF files', () => {
  test('each document is a valid PDF 1.4 (header, xref offsets, trailer, %%EOF) naming its type and employee', async () => {
    const documents = [...(await listIncomeTaxes()), ...(await listAutoEnrolment())];
    const expectations = {
      'gb3001-p60-2025-001': ['P60 End of Year Certificate', 'Jane Doe'],
      'gb3001-p11d-2025-004': ['P11D Expenses and benefits', 'Owen Jones'],
      'gb3001-p45-2026-005': ['P45 Details of employee leaving work', 'Fiona Campbell'],
      'gb3001-ae-2026-003': ['auto-enrolment letter', 'Priya Shah'],
    };
    for (const document of documents) {
      const content = checkPdf(Buffer.from(await (await download(document.documentId)).arrayBuffer()));
      expect(content).toContain(document.documentId);
      for (const text of expectations[document.documentId] || []) expect(content).toContain(text);
    }
  });

  test('special characters are escaped inside PDF strings', () => {
    const { buildPdf } = require('../pdf');
    const content = checkPdf(buildPdf({ title: 'A (b) \\ c', lines: ['Thistle & Rose (UK)'], createdAt: '2026-01-01T00:00:00.000Z' }));
    expect(content).toContain('(A \\(b\\) \\\\ c) Tj');
    expect(content).toContain('(Thistle & Rose \\(UK\\)) Tj');
  });
});

describe('listedDocuments knob: GB3001\'s income-tax listing with N documents', () => {
  afterEach(() => sandbox.reset()); // back to the start knobs (the seed) for the other tests

  async function resetWith(body) {
    const reset = await control(sandbox, '/reset', { method: 'POST', body });
    gbToken = token(sandbox, 'GB3001');
    return reset;
  }

  test('50 documents: the seeded four first, then unique ids and names, each a real PDF through its documentUrl', async () => {
    expect((await resetWith({ listedDocuments: 50 })).body).toMatchObject({ reset: true, listedDocuments: 50 });
    const documents = await listIncomeTaxes();
    expect(documents).toHaveLength(50);
    expect(documents.slice(0, 4).map((document) => document.documentId)).toEqual(['gb3001-p60-2025-001', 'gb3001-p60-2025-002', 'gb3001-p11d-2025-004', 'gb3001-p45-2026-005']);
    expect(new Set(documents.map((document) => document.documentId)).size).toBe(50);
    expect(new Set(documents.map((document) => document.name)).size).toBe(50);
    expect(documents[4]).toEqual({
      documentId: 'gb3001-p60-2024-001', createdAt: '2024-05-20T09:15:00.000Z', contractId: 'ctr_gb3001_001', type: 'P60',
      year: '2024', month: '04', name: 'P60-2024-Jane-Doe.pdf', documentUrl: '/companies/GB3001/contracts/ctr_gb3001_001/documents/gb3001-p60-2024-001',
    });
    const titles = { P60: 'P60 End of Year Certificate', P11D: 'P11D Expenses and benefits', P45: 'P45 Details of employee leaving work' };
    for (const document of documents) {
      expect(Object.keys(document)).toEqual(LISTING_KEYS);
      expect(new Date(document.createdAt).toISOString()).toBe(document.createdAt);
      const response = await api(sandbox, document.documentUrl, { token: gbToken });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${document.name}"`);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.length).toBeLessThan(4000);
      const content = checkPdf(bytes);
      expect(content).toContain(document.documentId);
      expect(content).toContain(titles[document.type]);
      expect(bytes.equals(sandbox.seed.document('GB3001', document.documentId))).toBe(true);
    }
    expect(sandbox.seed.documents('GB3001').filter((document) => document.listing === 'incomeTaxes')).toHaveLength(50);
    // Auto-enrolment letters and the never-listed payslip are as seeded.
    expect(await listAutoEnrolment()).toHaveLength(2);
    expect((await download('gb3001-payslip-202607-001')).status).toBe(404);
  });

  test('fewer than the seed drops the last seeded ones; 0 is an empty listing; a reset without body returns to the seed', async () => {
    await resetWith({ listedDocuments: 2 });
    expect((await listIncomeTaxes()).map((document) => document.documentId)).toEqual(['gb3001-p60-2025-001', 'gb3001-p60-2025-002']);
    expect((await download('gb3001-p11d-2025-004')).status).toBe(404);
    await resetWith({ listedDocuments: 0 });
    expect(await listIncomeTaxes()).toEqual([]);
    expect((await resetWith(undefined)).body).toMatchObject({ listedDocuments: null });
    expect(await listIncomeTaxes()).toHaveLength(4);
    expect((await download('gb3001-p60-2024-001')).status).toBe(404);
  });

  test('bad values are 400; the option of startSandbox is the value after a reset without body', async () => {
    for (const listedDocuments of [-1, 1.5, '50']) {
      expect((await control(sandbox, '/reset', { method: 'POST', body: { listedDocuments } })).status).toBe(400);
    }
    const sized = await startTestSandbox({ listedDocuments: 7 });
    try {
      const list = async () => (await (await api(sized, '/companies/GB3001/income-taxes-documents', { token: token(sized, 'GB3001') })).json()).documents;
      expect(await list()).toHaveLength(7);
      sized.reset();
      expect(await list()).toHaveLength(7);
      sized.reset({ listedDocuments: 12 });
      expect(await list()).toHaveLength(12);
    } finally {
      await sized.close();
    }
  });
});
