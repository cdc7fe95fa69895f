// The agent panel's document. Kept free of the vscode module so a unit test can check the
// security policy: no remote content, scripts only with this load's nonce.

export interface PanelHtmlInput {
  /** `webview.cspSource`: the origin the webview serves extension files from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  lang: string;
}

function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

export function panelHtml(input: PanelHtmlInput): string {
  const csp = contentSecurityPolicy(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="${attr(input.lang)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${attr(input.codiconUri)}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${attr(input.styleUri)}">
<title>Groundwork</title>
</head>
<body>
<div id="app" aria-busy="true"></div>
<script nonce="${attr(input.nonce)}" src="${attr(input.scriptUri)}"></script>
</body>
</html>`;
}

/** 32 characters from a CSPRNG, fresh for every document. */
export function makeNonce(randomBytes: (n: number) => Uint8Array): string {
  return Array.from(randomBytes(24), (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, 32);
}
