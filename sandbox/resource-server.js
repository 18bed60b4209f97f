'use strict';
// The resource server: every operation of the spec's Endpoints table, under /api/v1. Operations are
// declared as data (scopes, country, month, ...) and one pipeline applies the checks in a fixed order:
//   path -> 401 token -> (429 rate limit) -> 404 company of the token -> 403 partners only -> 403 scope
//   -> 404 country -> 400 query/body -> 404 no completed payroll -> handler.

const { ReplyError, apiError } = require('./errors');
const { jsonReply, binaryReply, emptyReply, withHeaders, readFields, bearerToken, BodyFormatError, BodyTooLargeError } = require('./http-util');
const { createRouter } = require('./router');
const { isValidMonth, MONTH_FORMAT_TEXT } = require('./months');
const seed = require('./seed');
const { documentName, documentListItem, listedDocuments, documentPdf } = require('./documents');
const { accountingEntries } = require('./accounting');
const { accountingCsv } = require('./csv');
const { paymentFile } = require('./payment-file');
const { validateBillingDeclaration } = require('./billing');
const { rateLimitExceededReply, rateLimitKey } = require('./rate-limit');

const WRONG_ID = 'The provided id is wrong';

// GET_document_by_id accepts either scope for any listed document, as the spec words it ("either
// suffices"); spec rule 2 (listed first) is what ties a document to the listing that returned it.
const DOCUMENT_SCOPES = ['contracts:payslips:read', 'pension:read'];

function createResourceServer({ tokens, companyState, rateLimiter, knobs }) {
  // ---- handlers -----------------------------------------------------------------------------------

  function documentListing(listing) {
    return ({ company }) => {
      const documents = listedDocuments(company.id, listing, knobs.listedDocuments);
      companyState.markListed(company.id, documents.map((document) => document.documentId));
      return jsonReply(200, { documents: documents.map((document) => documentListItem(company.id, document)) });
    };
  }

  /** Spec rule 2: only documents already returned by a listing of this company; 404 otherwise. */
  function downloadDocument({ company, params }) {
    const document = seed.findDocument(company.id, params.documentId, knobs.listedDocuments);
    const reachable = document
      && companyState.wasListed(company.id, document.documentId)
      && (params.contractId === undefined || params.contractId === document.contractId);
    if (!reachable) throw apiError(404, WRONG_ID);
    return binaryReply('application/pdf', documentPdf(company.id, document.documentId, knobs.listedDocuments), {
      'Content-Disposition': `attachment; filename="${documentName(company.id, document)}"`,
    });
  }

  async function declareBilling({ req, company, token }) {
    let body;
    try {
      ({ fields: body } = await readFields(req, { allowForm: false }));
    } catch (error) {
      if (error instanceof BodyFormatError) throw apiError(400, error.message);
      if (error instanceof BodyTooLargeError) throw apiError(413, error.message);
      throw error;
    }
    const { problems, declaration } = validateBillingDeclaration(body);
    if (problems.length > 0) throw apiError(400, problems[0].message, { errors: problems });
    companyState.addDeclaration({ companyId: company.id, clientId: token.clientId, ...declaration });
    return emptyReply(204);
  }

  // Payment files and the CSV export are sent without Content-Disposition (as far as is known the real
  // service names nothing): clients build their own file names. Only PDFs carry a name.
  const OPERATIONS = [
    { id: 'GET_company', method: 'GET', path: '/companies/:companyId',
      handler: ({ company }) => jsonReply(200, seed.companyRecord(company)) },
    { id: 'GET_company_fr', method: 'GET', path: '/companies-fr/:companyId', country: 'FR',
      handler: ({ company }) => jsonReply(200, seed.frenchCompanyRecord(company)) },
    { id: 'POST_partner_declarations', method: 'POST', path: '/companies/:companyId/billing-declarations', partnersOnly: true,
      handler: declareBilling },
    { id: 'GET_companyPaymentFile', method: 'GET', path: '/companies/:companyId/payment-files', scopes: ['payment-files:read'],
      month: true, completedPayroll: true,
      handler: ({ company, month }) => binaryReply('application/octet-stream', paymentFile(company.id, month, knobs.paymentFileBytes)) },
    { id: 'GET_companyAccounting', method: 'GET', path: '/companies/:companyId/accounting', scopes: ['accounting:read'],
      country: 'FR', month: true, completedPayroll: true,
      handler: ({ company, month }) => binaryReply('application/octet-stream', accountingCsv(company.id, month, knobs.accountingLines)) },
    { id: 'GET_companyAccountingV2', method: 'GET', path: '/companies/:companyId/accounting-v2', scopes: ['accounting:read'],
      country: 'FR', month: true, completedPayroll: true,
      handler: ({ company, month }) => jsonReply(200, accountingEntries(company.id, month, knobs.accountingLines)) },
    { id: 'GET_companyPayrollStatus', method: 'GET', path: '/companies/:companyId/payroll-status', month: true,
      handler: ({ company, month }) => jsonReply(200, companyState.payrollStatus(company.id, month)) },
    { id: 'GET_companyIncomeTaxesDocuments', method: 'GET', path: '/companies/:companyId/income-taxes-documents',
      scopes: ['contracts:payslips:read'], country: 'GB', handler: documentListing('incomeTaxes') },
    { id: 'GET_companyAutoEnrolmentDocuments', method: 'GET', path: '/companies/:companyId/auto-enrolment-documents',
      scopes: ['pension:read'], country: 'GB', handler: documentListing('autoEnrolment') },
    { id: 'GET_healthInsuranceContracts', method: 'GET', path: '/companies/:companyId/health-insurance-contracts',
      scopes: ['health-insurance:read'], country: 'FR',
      handler: ({ company }) => jsonReply(200, { contracts: seed.healthInsuranceContractsOf(company.id) }) },
    { id: 'GET_providentFundContracts', method: 'GET', path: '/companies/:companyId/provident-fund-contracts',
      scopes: ['health-insurance:read'], country: 'FR',
      handler: ({ company }) => jsonReply(200, { contracts: seed.providentFundContractsOf(company.id) }) },
    { id: 'GET_document_by_id', method: 'GET', path: '/companies/:companyId/documents/:documentId',
      scopes: DOCUMENT_SCOPES, handler: downloadDocument },
    // The sample documentUrl path itself ("the API path from which the document is downloaded").
    { id: 'GET_document_by_id', method: 'GET', path: '/companies/:companyId/contracts/:contractId/documents/:documentId',
      scopes: DOCUMENT_SCOPES, handler: downloadDocument },
  ];

  const findOperation = createRouter(OPERATIONS);

  // ---- checks -------------------------------------------------------------------------------------

  function authenticate(req) {
    const presented = bearerToken(req);
    const record = tokens.find(presented);
    if (record) return record;
    const challenge = presented ? 'Bearer realm="partner-payroll", error="invalid_token"' : 'Bearer realm="partner-payroll"';
    throw apiError(401, undefined, { headers: { 'WWW-Authenticate': challenge } });
  }

  /** `date` is required where listed, once, as YYYYMM starting with 2. */
  function requiredMonth(searchParams, name) {
    const values = searchParams.getAll(name);
    if (values.length === 0 || values[0] === '') throw apiError(400, `Missing required query parameter "${name}": expected ${MONTH_FORMAT_TEXT}`);
    if (values.length > 1) throw apiError(400, `Query parameter "${name}" must be given once, in format ${MONTH_FORMAT_TEXT}`);
    if (!isValidMonth(values[0])) throw apiError(400, `Invalid query parameter "${name}": "${values[0]}" does not match ${MONTH_FORMAT_TEXT}`);
    return values[0];
  }

  function checkAccess(operation, token, params, url) {
    // A token sees only its own company: any other id (existing or not) is "wrong", like the real service.
    const company = params.companyId === token.companyId ? seed.findCompany(params.companyId) : null;
    if (!company) throw apiError(404, WRONG_ID);
    if (operation.partnersOnly && !token.partner) throw apiError(403, 'Only partners can declare billing data');
    if (operation.scopes && !operation.scopes.some((scope) => token.scopes.includes(scope))) {
      throw apiError(403, `Missing scope ${operation.scopes.map((scope) => `"${scope}"`).join(' or ')}.`);
    }
    if (operation.country && company.country !== operation.country) {
      throw apiError(404, `This operation is only available for companies in ${operation.country}; company ${company.id} is in ${company.country}`);
    }
    const month = operation.month ? requiredMonth(url.searchParams, 'date') : null;
    if (operation.completedPayroll && companyState.payrollStatus(company.id, month).status !== 'completed') {
      throw apiError(404, `No completed payroll for ${month} in company ${company.id}: this file exists once the payroll of the month is completed`);
    }
    return { company, month };
  }

  // ---- pipeline -----------------------------------------------------------------------------------

  async function handle(req, url, apiPath) {
    const found = findOperation(req.method, apiPath);
    if (!found) throw apiError(404, `No operation at ${req.method} ${url.pathname}`);
    if (found.allowedMethods) {
      throw apiError(405, `Use ${found.allowedMethods.join(' or ')} on ${url.pathname}`, { headers: { Allow: found.allowedMethods.join(', ') } });
    }
    const token = authenticate(req);
    const limit = rateLimiter.consume(rateLimitKey(token), req.method);
    if (limit && !limit.allowed) return rateLimitExceededReply(limit.limit);
    try {
      const { company, month } = checkAccess(found.route, token, found.params, url);
      const result = await found.route.handler({ req, url, params: found.params, token, company, month });
      return limit ? withHeaders(result, limit.headers) : result;
    } catch (error) {
      if (limit && error instanceof ReplyError) error.reply = withHeaders(error.reply, limit.headers);
      throw error;
    }
  }

  return { handle, operations: OPERATIONS };
}

module.exports = { createResourceServer };
