'use strict';
// Builds a small, valid one-page PDF 1.4 (Helvetica, WinAnsi text) with a correct cross-reference table,
// so documents served by the sandbox open in any viewer and survive strict parsers.

const PAGE_WIDTH = 595; // A4 in points
const PAGE_HEIGHT = 842;

/** Text as a PDF literal string: Latin-1 bytes, with \, ( and ) escaped; other characters become '?'. */
function pdfString(text) {
  const escaped = String(text).replace(/[^\u0020-\u00ff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
  return Buffer.from(`(${escaped})`, 'latin1');
}

function contentStream(title, lines) {
  const parts = [
    Buffer.from(`BT /F1 18 Tf 56 ${PAGE_HEIGHT - 80} Td `), pdfString(title), Buffer.from(' Tj ET\n'),
    Buffer.from(`BT /F1 11 Tf 16 TL 56 ${PAGE_HEIGHT - 120} Td\n`),
    ...lines.flatMap((line) => [pdfString(line), Buffer.from(' Tj T*\n')]),
    Buffer.from('ET\n'),
  ];
  return Buffer.concat(parts);
}

/** `2025-05-20T09:15:00.000Z` -> `D:20250520091500Z` */
function pdfDate(isoDateTime) {
  return `D:${isoDateTime.replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/**
 * buildPdf({title, lines, createdAt}) -> Buffer. Objects: 1 catalog, 2 page tree, 3 page, 4 content
 * stream, 5 font, 6 document information.
 */
function buildPdf({ title, lines, createdAt }) {
  const stream = contentStream(title, lines);
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`),
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} >>\nstream\n`), stream, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    Buffer.concat([
      Buffer.from('<< /Title '), pdfString(title),
      Buffer.from(' /Producer (Partner Payroll sandbox)'),
      Buffer.from(createdAt ? ` /CreationDate (${pdfDate(createdAt)})` : ''),
      Buffer.from(' >>'),
    ]),
  ];
  // The second header line holds bytes above 127 so tools treat the file as binary (PDF 1.4, 7.5.2).
  const chunks = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0].length;
  const offsets = [];
  objects.forEach((body, index) => {
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    offsets.push(offset);
    chunks.push(chunk);
    offset += chunk.length;
  });
  // Each xref entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n|f, CR LF.
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f\r',
    ...offsets.map((value) => `${String(value).padStart(10, '0')} 00000 n\r`),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>`,
    'startxref',
    String(offset),
    '%%EOF',
    '',
  ].join('\n');
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}

module.exports = { buildPdf };
