'use strict';
// The consent screen of the authorization server. No login: in the sandbox the person at the browser is
// taken to be a company administrator and picks the company to connect. Stable ids (#company, #accept,
// #refuse) let a headless browser drive it.

const { escapeHtml } = require('./errors');

const SCOPE_LABELS = {
  'payment-files:read': 'Download payment files',
  'accounting:read': 'Read accounting exports',
  'contracts:payslips:read': 'Read UK income-tax documents',
  'health-insurance:read': 'Read health-insurance and provident-fund contracts',
  'pension:read': 'Read UK auto-enrolment documents',
  'contracts:read': 'Read contracts',
};

function hiddenInput(name, value) {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;
}

/**
 * `forwarded` holds the original authorization parameters (only those that were sent) so the POST carries
 * them back; the server validates them again rather than trusting the form. `selectedCompanyId` (or null:
 * the first company) is the option selected when the page opens.
 */
function consentPage({ client, scopes, companies, selectedCompanyId, forwarded, action }) {
  const scopeItems = scopes.length
    ? scopes.map((scope) => `<li><code>${escapeHtml(scope)}</code> ${escapeHtml(SCOPE_LABELS[scope] || '')}</li>`).join('\n')
    : '<li>No scope: company record and payroll status only</li>';
  const options = companies
    .map((company) => {
      const selected = company.id === selectedCompanyId ? ' selected' : '';
      return `<option value="${escapeHtml(company.id)}"${selected}>${escapeHtml(`${company.name} (${company.id}, ${company.country})`)}</option>`;
    })
    .join('\n');
  const hidden = Object.entries(forwarded).map(([name, value]) => hiddenInput(name, value)).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Authorize ${escapeHtml(client.clientId)}</title></head>
<body>
<h1>Authorize an application</h1>
<p>The application <strong id="client-id">${escapeHtml(client.clientId)}</strong> asks to access the payroll data of your company:</p>
<ul id="scopes">
${scopeItems}
</ul>
<form id="consent" method="post" action="${escapeHtml(action)}">
${hidden}
<label for="company">Company you administer</label>
<select id="company" name="company_id">
${options}
</select>
<p>
<button type="submit" id="accept" name="decision" value="accept">Accept</button>
<button type="submit" id="refuse" name="decision" value="refuse">Refuse</button>
</p>
</form>
<p><small>Partner Payroll sandbox: no login, any company can be picked.</small></p>
</body>
</html>
`;
}

module.exports = { consentPage };
