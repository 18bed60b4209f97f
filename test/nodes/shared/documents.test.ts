import type { INode } from 'n8n-workflow';

import { parseDocumentReference } from '../../../nodes/shared/documents';

const node = { name: 'Partner Payroll' } as INode;
const base = 'https://api.example.com/partner/v1';

describe('parseDocumentReference', () => {
	it('takes a bare id as it is', () => {
		expect(parseDocumentReference(' doc_42 ', base, node)).toEqual({ documentId: 'doc_42' });
	});

	it('reads a documentUrl as the listings return it', () => {
		expect(
			parseDocumentReference('/companies/GB3001/contracts/ctr_1/documents/doc%2042', base, node),
		).toEqual({
			companyId: 'GB3001',
			documentId: 'doc 42',
			path: '/contracts/ctr_1/documents/doc%2042',
		});
	});

	it('accepts an absolute URL below the API base URL', () => {
		expect(parseDocumentReference(`${base}/companies/GB3001/documents/doc_1`, base, node)).toEqual({
			companyId: 'GB3001',
			documentId: 'doc_1',
			path: '/documents/doc_1',
		});
	});

	it.each([
		[
			'https://evil.example.net/partner/v1/companies/GB3001/documents/doc_1',
			/outside the API base URL/,
		],
		['https://api.example.com/other/companies/GB3001/documents/doc_1', /outside the API base URL/],
		['/companies/GB3001/payment-files', /not a document path/],
		['/companies/GB3001/documents/../../admin', /not a document path/],
		['/companies/GB3001/documents/%2E%2E', /Document ID must be a single id/],
		['/companies/GB3001/documents/..%2F..%2Fadmin', /Document ID must be a single id/],
		['/companies/GB3001/documents/a%5C..%5C..%5Cadmin', /Document ID must be a single id/],
		['/companies/C1/documents/..\\..\\..\\..\\admin', /contains a backslash/],
		[
			'https://api.example.com/partner/v1/companies/C1/documents/x\\..\\..\\admin',
			/contains a backslash/,
		],
		['/companies/GB3001/documents/doc\u0000_1', /control character/],
		['/companies/../admin/documents/doc_1', /not a document path/],
		['/companies/GB3001/contracts/%2e%2e/documents/doc_1', /Document ID must be a single id/],
		['..', /Document ID must be a single id/],
		['.', /Document ID must be a single id/],
		['a%2Fb', /Document ID must be a single id/],
		['   ', /is empty/],
	])('refuses %p', (input, message) => {
		expect(() => parseDocumentReference(input, base, node)).toThrow(message);
	});
});
