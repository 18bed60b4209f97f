import {
	fileNameFromContentDisposition,
	fileNamePart,
	safeFileName,
} from '../../../nodes/shared/binary';

describe('file names from Content-Disposition are safe base names', () => {
	it.each([
		['attachment; filename="../../etc/passwd"', 'passwd'],
		['attachment; filename="C:\\\\temp\\\\pay.txt"', 'pay.txt'],
		["attachment; filename*=UTF-8''..%2F..%2Fsecret.pdf", 'secret.pdf'],
		['attachment; filename*=UTF-8\'\'r%C3%A9sum%C3%A9.pdf; filename="resume.pdf"', 'résumé.pdf'],
		['attachment; filename="..."', undefined],
		['attachment; filename="a\u0000b\u001fc.csv"', 'abc.csv'],
		['attachment; filename=".hidden"', 'hidden'],
	])('%p → %p', (header, expected) => {
		expect(fileNameFromContentDisposition(header)).toBe(expected);
	});

	it('bounds the length and keeps the extension', () => {
		const name = safeFileName(`${'x'.repeat(500)}.pdf`)!;
		expect(name).toHaveLength(200);
		expect(name.endsWith('.pdf')).toBe(true);
	});
});

describe('names built from ids', () => {
	it('ids keep only characters every file system accepts', () => {
		expect(fileNamePart('../a b:c')).toBe('.._a_b_c');
	});
});
