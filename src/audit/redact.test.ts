import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { assignmentName, isPasswordSwitchProgram, isSecretName, nameParts, redactSecrets, REDACTED, SHAPES, type RedactionKind } from './redact.ts';

const R = REDACTED;
const GHP = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

/** [command, redacted text, kinds] */
const SECRETS: [string, string, RedactionKind[]][] = [
  [
    'curl -sS -H "Authorization: Bearer abcdef1234567890" https://api.example.com/v1/items',
    `curl -sS -H "Authorization: Bearer ${R}" https://api.example.com/v1/items`,
    ['authorization_header', 'bearer_token'],
  ],
  [
    "curl -H 'authorization: token 0123456789abcdef' https://api.github.com/user",
    `curl -H 'authorization: token ${R}' https://api.github.com/user`,
    ['authorization_header'],
  ],
  [
    'curl -H "Authorization: Basic dXNlcjpwYXNzd29yZA==" https://x.example',
    `curl -H "Authorization: Basic ${R}" https://x.example`,
    ['authorization_header', 'basic_auth'],
  ],
  ['wget --header="Authorization: Basic dXNlcjpwYXNz" https://x', `wget --header="Authorization: Basic ${R}" https://x`, ['authorization_header', 'basic_auth']],
  [
    'curl -H "X-Api-Key: 9f8e7d6c5b4a" -H "Accept: application/json" https://x',
    `curl -H "X-Api-Key: ${R}" -H "Accept: application/json" https://x`,
    ['secret_header'],
  ],
  ['curl -H "PRIVATE-TOKEN: glabc123" https://gitlab.example/api', `curl -H "PRIVATE-TOKEN: ${R}" https://gitlab.example/api`, ['secret_header']],
  ['curl -u admin:s3cr3t https://x.example', `curl -u admin:${R} https://x.example`, ['user_password']],
  ['curl --user=admin:s3cr3t https://x', `curl --user=admin:${R} https://x`, ['user_password']],
  ['curl -uadmin:s3cr3t https://x', `curl -uadmin:${R} https://x`, ['user_password']],
  ['http -a alice:pa55 GET https://x', `http -a alice:${R} GET https://x`, ['user_password']],
  [
    'export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    `export AWS_SECRET_ACCESS_KEY=${R}`,
    ['secret_assignment'],
  ],
  ['export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE', `export AWS_ACCESS_KEY_ID=${R}`, ['aws_access_key']],
  ['GITHUB_TOKEN="abc def" gh pr list', `GITHUB_TOKEN="${R}" gh pr list`, ['secret_assignment']],
  ["PGPASSWORD='hunter2' psql -h db -U app", `PGPASSWORD='${R}' psql -h db -U app`, ['secret_assignment']],
  ['MYSQL_PWD=hunter2 mysql -u root', `MYSQL_PWD=${R} mysql -u root`, ['secret_assignment']],
  ['DB_PASS=x1 ./migrate && echo ok', `DB_PASS=${R} ./migrate && echo ok`, ['secret_assignment']],
  ['docker run -e API_TOKEN=abc123 -e MODE=dev img', `docker run -e API_TOKEN=${R} -e MODE=dev img`, ['secret_assignment']],
  ['docker build --build-arg NPM_TOKEN=xyz789 .', `docker build --build-arg NPM_TOKEN=${R} .`, ['secret_assignment']],
  [
    'kubectl create secret generic db --from-literal=password=hunter2',
    `kubectl create secret generic db --from-literal=password=${R}`,
    ['secret_assignment'],
  ],
  [
    'git clone https://user:token123@github.com/org/repo.git',
    `git clone https://user:${R}@github.com/org/repo.git`,
    ['url_password'],
  ],
  ['psql postgresql://app:pw@db.internal:5432/app', `psql postgresql://${R}@db.internal:5432/app`, ['database_url_secret', 'url_password']],
  [`git remote add origin https://${GHP}@github.com/o/r.git`, `git remote add origin https://${R}@github.com/o/r.git`, ['github_token']],
  ['mysql -u root -pSECRET mydb', `mysql -u root -p${R} mydb`, ['password_option']],
  ['mysqldump -psup3r --all-databases', `mysqldump -p${R} --all-databases`, ['password_option']],
  ['deploy --password=hunter2 --env prod', `deploy --password=${R} --env prod`, ['secret_option']],
  ['vault login --token s.abcdef123', `vault login --token ${R}`, ['secret_option']],
  ['tool --client-secret "a b c" --region eu', `tool --client-secret "${R}" --region eu`, ['secret_option']],
  ['keytool -list -keystore ks.jks -storepass changeit', `keytool -list -keystore ks.jks -storepass ${R}`, ['secret_option']],
  ['openssl enc -aes256 -pass pass:hunter2 -in f', `openssl enc -aes256 -pass ${R} -in f`, ['secret_option']],
  ['sshpass -p hunter2 ssh host', `sshpass -p ${R} ssh host`, ['password_option']],
  ['docker login -u me -p hunter2 registry.example', `docker login -u me -p ${R} registry.example`, ['password_option']],
  [`echo ${JWT} | base64 -d`, `echo ${R} | base64 -d`, ['jwt']],
  ['OPENAI_KEY=sk-proj-abcdefghijklmnopqrstuvwx python run.py', `OPENAI_KEY=${R} python run.py`, ['sk_api_key']],
  ['curl https://hooks.slack.com -d token=xoxb-1234567890-abcdef', `curl https://hooks.slack.com -d token=${R}`, ['secret_assignment', 'slack_token']],
  [
    'printf "%s" "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----" > k',
    `printf "%s" "-----BEGIN RSA PRIVATE KEY-----${R}-----END RSA PRIVATE KEY-----" > k`,
    ['private_key'],
  ],
  [
    'curl -H "Authorization: Bearer t0k3nAAAA" https://a && curl -u u:p2 https://b',
    `curl -H "Authorization: Bearer ${R}" https://a && curl -u u:${R} https://b`,
    ['authorization_header', 'bearer_token', 'user_password'],
  ],
];

const ORDINARY = [
  'git push --force origin main',
  'git commit -m "fix token parsing and password reset flow"',
  'git log -p -5 -- src/auth.ts',
  'npm test -- --run src/audit',
  'grep -rn password src/ | head',
  'rg -i "api_key" --type ts',
  'ssh -p 2222 user@host',
  'mkdir -p build/dist',
  'docker run -u 1000:1000 -e MODE=dev img',
  'TOKENIZERS_PARALLELISM=false python train.py',
  'GIT_AUTHOR_NAME=me git status',
  'BUCKLER_BYPASS=1 git commit -m x',
  'PWD=/tmp OLDPWD=/home ls',
  'export TOKEN_FILE=/run/secrets/token',
  'docker login --password-stdin -u me < pw.txt',
  'gh auth login --with-token < token.txt',
  'psql --no-password mydb',
  'psql --password mydb',
  'mysql -p mydb',
  'llm --max-tokens 100 "summarise"',
  'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com',
  'curl -u "$USER:$PASS" https://x',
  'export GITHUB_TOKEN=${GH_TOKEN}',
  'git clone https://github.com/org/repo.git',
  'git clone git@github.com:org/repo.git',
  'scp file user@host:/tmp/x',
  'echo "Basic usage: run it" && echo "Bearer of news"',
  'pip install scikit-learn==1.5',
  'kubectl get secret db -o yaml',
  'aws s3 ls s3://bucket --profile dev',
  'curl https://example.com/path?a=1&b=2',
  'find . -name "*.key" -o -name "*.pem"',
  'echo $((1+2)) `date` $(whoami)',
  'for f in *.ts; do echo "$f"; done',
  "sed -i 's/password/passphrase/g' docs/*.md",
  'curl -a https://ftp.example/upload',
];

describe('redactSecrets', () => {
  it.each(SECRETS)('%s', (command, text, kinds) => {
    const r = redactSecrets(command);
    expect(r.text).toBe(text);
    expect(r.kinds).toEqual([...kinds].sort());
    expect(r.count).toBe(text.split(R).length - 1);
  });

  it.each(ORDINARY)('leaves an ordinary command alone: %s', (command) => {
    expect(redactSecrets(command)).toEqual({ text: command, kinds: [], count: 0 });
  });

  it('finds nothing in the shared shell corpus (no secrets there) and never throws', () => {
    // The shared corpus sits beside the repository (../shared), as CI lays it out.
    const file = new URL('../../../shared/corpus/shell-snippets.json', import.meta.url);
    if (!fs.existsSync(file)) return;
    const corpus = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown[]>;
    const snippets = Object.values(corpus)
      .flat()
      .map((s) => (typeof s === 'string' ? s : JSON.stringify(s)));
    expect(snippets.length).toBeGreaterThan(1000);
    const flagged = snippets.filter((s) => redactSecrets(s).count > 0);
    expect(flagged).toEqual([]);
  });

  it('survives unbalanced quotes and odd input', () => {
    for (const s of ['"unterminated TOKEN=x', "PASSWORD='open", 'a \\', '$(', '`', '--token', 'TOKEN=', '\\\n']) {
      expect(() => redactSecrets(s)).not.toThrow();
    }
    expect(redactSecrets("PASSWORD='open").text).toBe(`PASSWORD='${R}`);
  });
});

describe('isSecretName', () => {
  it.each([
    ['GITHUB_TOKEN', true],
    ['AWS_SECRET_ACCESS_KEY', true],
    ['X_API_KEY', true],
    ['apiKey', true],
    ['--client-secret', true],
    ['PGPASSWORD', true],
    ['DB_PASS', true],
    ['GOOGLE_APPLICATION_CREDENTIALS', true],
    ['TOKEN_FILE', false],
    ['SECRET_NAME', false],
    ['--password-stdin', false],
    ['--auth-type', false],
    ['BUCKLER_BYPASS', false],
    ['PWD', false],
    ['--no-password', false],
    ['--max-tokens', false],
    ['KEY', false],
  ] as const)('%s → %s', (name, want) => {
    expect(isSecretName(name)).toBe(want);
  });
});

// ---- realistic credentials of common tools ------------------------------------------------
// Built here, fake but in each service's real shape (prefix, alphabet, length), so that no real
// secret sits in the repository and secret scanners have nothing to find in the source.

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const B64URL = `${ALNUM}-_`;
/** A deterministic pseudo-random string of `n` characters from `alphabet`. */
function fake(alphabet: string, n: number, seed = 7): string {
  let x = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += alphabet[(x >>> 0) % alphabet.length];
  }
  return out;
}
const b64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
const FAKE_JWT = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ sub: 'svc-deploy', iat: 1732000000 })}.${fake(B64URL, 86, 3)}`;
const PEM_BODY = Array.from({ length: 4 }, (_, i) => fake(`${ALNUM}+/`, 64, 40 + i)).join('\n');

/** [tool, the secret, a command that carries it]: after redaction the secret must be gone. */
const CREDENTIALS: [string, string, (secret: string) => string][] = [
  ['AWS access key id', `AKIA${fake(UPPER_NUM, 16, 1)}`, (k) => `aws configure set aws_access_key_id ${k}`],
  ['AWS secret key (configure set)', fake(`${ALNUM}+/`, 40, 2), (k) => `aws configure set aws_secret_access_key ${k}`],
  ['AWS secret key (configure set, profile)', fake(`${ALNUM}+/`, 40, 4), (k) => `aws configure set aws_secret_access_key ${k} --profile prod`],
  ['AWS session token (env)', fake(`${ALNUM}+/`, 300, 5), (k) => `AWS_SESSION_TOKEN=${k} aws s3 ls`],
  ['AWS STS key id', `ASIA${fake(UPPER_NUM, 16, 6)}`, (k) => `export AWS_ACCESS_KEY_ID=${k}`],
  ['GitHub classic PAT', `ghp_${fake(ALNUM, 36, 7)}`, (k) => `gh auth login --with-token <<< ${k}`],
  ['GitHub fine-grained PAT', `github_pat_${fake(ALNUM, 22, 8)}_${fake(ALNUM, 59, 9)}`, (k) => `git clone https://x-access-token:${k}@github.com/o/r.git`],
  ['GitHub OAuth token', `gho_${fake(ALNUM, 36, 10)}`, (k) => `curl -H "Authorization: token ${k}" https://api.github.com/user`],
  ['GitHub app installation token', `ghs_${fake(ALNUM, 36, 11)}`, (k) => `git push https://${k}@github.com/o/r.git`],
  ['GitHub token piped into gh', `ghp_${fake(ALNUM, 36, 12)}`, (k) => `echo ${k} | gh auth login --with-token`],
  ['GitLab PAT', `glpat-${fake(B64URL, 20, 13)}`, (k) => `curl --header "PRIVATE-TOKEN: ${k}" https://gitlab.com/api/v4/projects`],
  ['GitLab deploy token', `gldt-${fake(B64URL, 20, 14)}`, (k) => `git clone https://deploy:${k}@gitlab.com/g/p.git`],
  ['GitLab runner token', `glrt-${fake(B64URL, 20, 15)}`, (k) => `gitlab-runner register --token ${k}`],
  ['Slack bot token', `xoxb-${fake('0123456789', 12, 16)}-${fake('0123456789', 13, 17)}-${fake(ALNUM, 24, 18)}`, (k) => `slack-cli post --token=${k} "#ops" hi`],
  ['Slack user token', `xoxp-${fake('0123456789', 12, 19)}-${fake(ALNUM, 32, 20)}`, (k) => `SLACK_TOKEN=${k} ./notify.sh`],
  ['Slack webhook', `T${fake(UPPER_NUM, 10, 21)}/B${fake(UPPER_NUM, 10, 22)}/${fake(ALNUM, 24, 23)}`, (k) => `curl -X POST -d '{"text":"hi"}' https://hooks.slack.com/services/${k}`],
  ['Stripe live secret key', `sk_live_${fake(ALNUM, 24, 24)}`, (k) => `curl https://api.stripe.com/v1/charges -u ${k}:`],
  ['Stripe restricted key', `rk_live_${fake(ALNUM, 24, 25)}`, (k) => `stripe listen --api-key ${k}`],
  ['Stripe webhook secret', `whsec_${fake(ALNUM, 32, 26)}`, (k) => `fly secrets set STRIPE_WEBHOOK=${k}`],
  ['OpenAI project key', `sk-proj-${fake(B64URL, 48, 27)}`, (k) => `OPENAI_API_KEY=${k} python app.py`],
  ['OpenAI key in a header', `sk-${fake(ALNUM, 48, 28)}`, (k) => `curl https://api.openai.com/v1/models -H "Authorization: Bearer ${k}"`],
  ['Anthropic key', `sk-ant-api03-${fake(B64URL, 93, 29)}AA`, (k) => `curl https://api.anthropic.com/v1/messages -H "x-api-key: ${k}"`],
  ['Anthropic key (env, quoted)', `sk-ant-api03-${fake(B64URL, 93, 30)}AA`, (k) => `export ANTHROPIC_API_KEY="${k}"`],
  ['Google API key', `AIza${fake(B64URL, 35, 31)}`, (k) => `curl "https://maps.googleapis.com/maps/api/geocode/json?address=x&key=${k}"`],
  ['Google OAuth client secret', `GOCSPX-${fake(B64URL, 28, 32)}`, (k) => `gcloud auth application-default login --client-id-file=c.json # ${k}`],
  ['Google OAuth access token', `ya29.${fake(B64URL, 120, 33)}`, (k) => `curl -H "Authorization: Bearer ${k}" https://www.googleapis.com/drive/v3/files`],
  ['Google refresh token', `1//0${fake(B64URL, 100, 34)}`, (k) => `oauth2l fetch --refresh_token ${k}`],
  ['npm automation token', `npm_${fake(ALNUM, 36, 35)}`, (k) => `npm config set //registry.npmjs.org/:_authToken ${k}`],
  ['npm token in .npmrc syntax', fake(ALNUM, 36, 36), (k) => `echo "//registry.npmjs.org/:_authToken=${k}" >> ~/.npmrc`],
  ['npm token (npm config set key=value)', fake(HEX, 40, 37), (k) => `npm config set //npm.pkg.github.com/:_authToken=${k}`],
  ['PyPI token', `pypi-AgEIcHlwaS5vcmc${fake(B64URL, 120, 38)}`, (k) => `twine upload -u __token__ -p ${k} dist/*`],
  ['PyPI token (env)', `pypi-AgEIcHlwaS5vcmc${fake(B64URL, 120, 39)}`, (k) => `TWINE_PASSWORD=${k} twine upload dist/*`],
  ['JWT', FAKE_JWT, (k) => `curl -H "Authorization: Bearer ${k}" https://internal/api`],
  ['JWT in a cookie', FAKE_JWT, (k) => `curl -b "session=${k}" https://app/`],
  ['RSA private key', PEM_BODY, (k) => `printf '%s' "-----BEGIN RSA PRIVATE KEY-----\n${k}\n-----END RSA PRIVATE KEY-----" > id_rsa`],
  ['OpenSSH private key', PEM_BODY, (k) => `echo "-----BEGIN OPENSSH PRIVATE KEY-----\n${k}\n-----END OPENSSH PRIVATE KEY-----" | ssh-add -`],
  ['basic auth in a URL', fake(ALNUM, 16, 41), (k) => `curl https://admin:${k}@registry.internal/v2/_catalog`],
  ['database URL', fake(ALNUM, 20, 42), (k) => `DATABASE_URL=postgres://app:${k}@db:5432/app npm run migrate`],
  ['Redis URL', fake(ALNUM, 24, 43), (k) => `redis-cli -u redis://default:${k}@cache:6379 ping`],
  ['bearer header', fake(ALNUM, 40, 44), (k) => `http GET https://api.example.com "Authorization:Bearer ${k}"`],
  ['basic header', Buffer.from(`deploy:${fake(ALNUM, 14, 45)}`).toString('base64'), (k) => `curl -H "Authorization: Basic ${k}" https://ci/`],
  ['docker login from echo', fake(ALNUM, 24, 46), (k) => `echo "${k}" | docker login -u ci --password-stdin registry.example.com`],
  ['docker login from printf', fake(ALNUM, 24, 47), (k) => `printf '%s' '${k}' | docker login --username ci --password-stdin`],
  ['Docker Hub PAT', `dckr_pat_${fake(B64URL, 27, 48)}`, (k) => `docker login -u me -p ${k}`],
  ['Hugging Face token', `hf_${fake(ALNUM, 34, 49)}`, (k) => `huggingface-cli login --token ${k}`],
  ['Hugging Face token (positional)', `hf_${fake(ALNUM, 34, 50)}`, (k) => `python -c "from huggingface_hub import login; login('${k}')"`],
  ['DigitalOcean token', `dop_v1_${fake(HEX, 64, 51)}`, (k) => `doctl auth init -t ${k}`],
  ['SendGrid key', `SG.${fake(B64URL, 22, 52)}.${fake(B64URL, 43, 53)}`, (k) => `curl -H "Authorization: Bearer ${k}" https://api.sendgrid.com/v3/mail/send`],
  ['SendGrid key (positional)', `SG.${fake(B64URL, 22, 54)}.${fake(B64URL, 43, 55)}`, (k) => `node send.js ${k}`],
  ['Shopify access token', `shpat_${fake(HEX, 32, 56)}`, (k) => `shopify app deploy ${k}`],
  ['Atlassian API token', `ATATT3xFfGF0${fake(B64URL, 180, 57)}`, (k) => `curl -u me@example.com:${k} https://x.atlassian.net/rest/api/3/myself`],
  ['HashiCorp Vault token', `hvs.${fake(B64URL, 90, 58)}`, (k) => `vault kv get -address=https://vault:8200 secret/app # ${k}`],
  ['Vault token (env)', `hvs.${fake(B64URL, 90, 59)}`, (k) => `VAULT_TOKEN=${k} vault kv get secret/app`],
  ['Databricks token', `dapi${fake(HEX, 32, 60)}`, (k) => `databricks configure --host https://x.cloud.databricks.com ${k}`],
  ['Postman key', `PMAK-${fake(HEX, 24, 61)}-${fake(HEX, 34, 62)}`, (k) => `newman run c.json --postman-api-key-alias ${k}`],
  ['Linear key', `lin_api_${fake(ALNUM, 40, 63)}`, (k) => `node sync.mjs ${k}`],
  ['Grafana service account token', `glsa_${fake(ALNUM, 32, 64)}_${fake(HEX, 8, 65)}`, (k) => `grafana-cli --config x ${k}`],
  ['New Relic key', `NRAK-${fake(UPPER_NUM, 27, 66)}`, (k) => `newrelic profile add --apiKey ${k}`],
  ['age secret key', `AGE-SECRET-KEY-1${fake(UPPER_NUM, 58, 67)}`, (k) => `echo ${k} > key.txt`],
  ['Telegram bot token', `${fake('123456789', 10, 68)}:AA${fake(B64URL, 33, 69)}`, (k) => `curl https://api.telegram.org/bot${k}/getMe`],
  ['Azure storage connection string', `${fake(`${ALNUM}+/`, 86, 70)}==`, (k) => `az storage blob list --connection-string "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${k};EndpointSuffix=core.windows.net"`],
  ['SQL Server connection string', fake(ALNUM, 18, 71), (k) => `dotnet ef database update --connection "Server=db;Database=app;User Id=sa;Password=${k};"`],
  ['*_SECRET_* assignment', fake(ALNUM, 32, 72), (k) => `APP_SECRET_B64=${k} ./run`],
  ['*_SECRET_* assignment, more parts', `sk_test_${fake(ALNUM, 24, 73)}`, (k) => `STRIPE_SECRET_KEY_LIVE=${k} node server.js`],
  ['*_PASSWORD_* assignment', fake(ALNUM, 12, 74), (k) => `export DB_PASSWORD_PROD=${k}`],
  ['assignment inside $(…)', fake(ALNUM, 30, 75), (k) => `out=$(API_TOKEN=${k} curl -s https://api/x)`],
  ['assignment inside backquotes', fake(ALNUM, 30, 76), (k) => 'echo `GITHUB_TOKEN=' + k + ' gh api user`'],
  ['assignment inside nested $(…)', fake(ALNUM, 30, 77), (k) => `echo "$(cat $(SECRET_KEY=${k} ./path-for))"`],
  ['git config password', fake(ALNUM, 16, 78), (k) => `git config --global user.password ${k}`],
  ['heroku config:set', fake(HEX, 36, 79), (k) => `heroku config:set API_KEY=${k} -a app`],
  ['mysql attached password', fake(ALNUM, 12, 80), (k) => `mysql -uroot -p${k} app`],
  ['sshpass', fake(ALNUM, 12, 81), (k) => `sshpass -p '${k}' ssh deploy@host`],
  ['kubectl secret literal', fake(ALNUM, 20, 82), (k) => `kubectl create secret generic app --from-literal=DB_PASSWORD=${k}`],
];

describe('realistic credentials of common tools', () => {
  it('covers at least 40 of them', () => expect(CREDENTIALS.length).toBeGreaterThanOrEqual(40));
  it.each(CREDENTIALS)('%s', (_tool, secret, command) => {
    const line = command(secret);
    const r = redactSecrets(line);
    expect(r.count).toBeGreaterThan(0);
    expect(r.text).toContain(R);
    // Neither the secret nor a long piece of it survives.
    expect(r.text).not.toContain(secret);
    for (const piece of secret.split(/\n/)) if (piece.length >= 12) expect(r.text).not.toContain(piece.slice(-12));
  });
});

/** One example per text-level shape: the exact redaction. */
const SHAPE_CASES: Record<RedactionKind, [string, string] | null> = {
  authorization_header: [`curl -H "Authorization: Digest ${fake(HEX, 24)}" https://x`, `curl -H "Authorization: Digest ${R}" https://x`],
  secret_header: ['curl -H "X-Auth-Token: 4f3c2b1a0f9e8d7c" https://x', `curl -H "X-Auth-Token: ${R}" https://x`],
  bearer_token: ['grpcurl -H "bearer abcdef1234567890" host:443 list', `grpcurl -H "bearer ${R}" host:443 list`],
  basic_auth: ['echo basic dXNlcjpwYXNzd29yZA== | tee log', `echo basic ${R} | tee log`],
  database_url_secret: ["psql 'postgres://u:pw@prod-db/app?sslpassword=x' -c 'DROP TABLE t'", `psql 'postgres://${R}@prod-db/app?${R}' -c 'DROP TABLE t'`],
  url_password: ['pip install --index-url https://me:pa55w0rd@pypi.internal/simple x', `pip install --index-url https://me:${R}@pypi.internal/simple x`],
  private_key: ['echo "-----BEGIN EC PRIVATE KEY-----MHcCAQEE-----END EC PRIVATE KEY-----"', `echo "-----BEGIN EC PRIVATE KEY-----${R}-----END EC PRIVATE KEY-----"`],
  npmrc_auth: ['echo "//npm.internal/:_password=aHVudGVyMg==" >> .npmrc', `echo "//npm.internal/:_password=${R}" >> .npmrc`],
  connection_string_secret: ['func start --cs "Endpoint=sb://x/;SharedAccessKeyName=root;SharedAccessKey=abc123def456="', `func start --cs "Endpoint=sb://x/;SharedAccessKeyName=root;SharedAccessKey=${R}"`],
  github_token: [`echo ghu_${fake(ALNUM, 36)}`, `echo ${R}`],
  gitlab_token: [`echo glptt-${fake(B64URL, 40)}`, `echo ${R}`],
  aws_access_key: [`echo AKIA${fake(UPPER_NUM, 16)}`, `echo ${R}`],
  sk_api_key: [`echo sk-${fake(ALNUM, 40)}`, `echo ${R}`],
  slack_token: [`echo xoxa-${fake(ALNUM, 30)}`, `echo ${R}`],
  slack_webhook: [`echo https://hooks.slack.com/services/${fake(ALNUM, 30)}`, `echo https://${R}`],
  npm_token: [`echo npm_${fake(ALNUM, 36)}`, `echo ${R}`],
  pypi_token: [`echo pypi-${fake(B64URL, 60)}`, `echo ${R}`],
  google_api_key: [`echo AIza${fake(B64URL, 35)}`, `echo ${R}`],
  google_oauth: [`echo GOCSPX-${fake(B64URL, 28)}`, `echo ${R}`],
  stripe_key: [`echo sk_test_${fake(ALNUM, 24)}`, `echo ${R}`],
  huggingface_token: [`echo hf_${fake(ALNUM, 34)}`, `echo ${R}`],
  digitalocean_token: [`echo doo_v1_${fake(HEX, 64)}`, `echo ${R}`],
  sendgrid_key: [`echo SG.${fake(B64URL, 22)}.${fake(B64URL, 43)}`, `echo ${R}`],
  shopify_token: [`echo shpss_${fake(HEX, 32)}`, `echo ${R}`],
  atlassian_token: [`echo ATATT${fake(B64URL, 60)}`, `echo ${R}`],
  docker_hub_token: [`echo dckr_oat_${fake(B64URL, 27)}`, `echo ${R}`],
  vault_token: [`echo hvb.${fake(B64URL, 40)}`, `echo ${R}`],
  databricks_token: [`echo dapi${fake(HEX, 32)}-2`, `echo ${R}`],
  postman_key: [`echo PMAK-${fake(HEX, 24)}-${fake(HEX, 34)}`, `echo ${R}`],
  linear_key: [`echo lin_oauth_${fake(ALNUM, 40)}`, `echo ${R}`],
  grafana_token: [`echo glc_${fake(ALNUM, 40)}`, `echo ${R}`],
  newrelic_key: [`echo NRII-${fake(UPPER_NUM, 27)}`, `echo ${R}`],
  age_secret_key: [`echo AGE-SECRET-KEY-1${fake(UPPER_NUM, 58)}`, `echo ${R}`],
  telegram_bot_token: [`echo 123456789:AA${fake(B64URL, 33)}`, `echo ${R}`],
  jwt: [`echo ${FAKE_JWT}`, `echo ${R}`],
  // Word-level detectors (not in SHAPES): their own cases
  user_password: ['curl --proxy-user me:pr0xy https://x', `curl --proxy-user me:${R} https://x`],
  secret_assignment: ['env CLIENT_SECRET=abc123 ./app', `env CLIENT_SECRET=${R} ./app`],
  secret_option: ['tool --api-key=abc123', `tool --api-key=${R}`],
  password_option: ['podman login -p hunter2 quay.io', `podman login -p ${R} quay.io`],
  secret_setting: ['aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENG --profile p', `aws configure set aws_secret_access_key ${R} --profile p`],
  stdin_password: ['echo -n hunter2 | docker login --password-stdin r.io', `echo -n ${R} | docker login --password-stdin r.io`],
};

describe('one case per shape', () => {
  it('every text-level shape and every kind has its case', () => {
    for (const shape of SHAPES) expect(SHAPE_CASES[shape.kind], shape.kind).not.toBeNull();
  });
  it.each(Object.entries(SHAPE_CASES).filter((e): e is [string, [string, string]] => e[1] !== null))('%s', (kind, [command, text]) => {
    const r = redactSecrets(command);
    expect(r.text).toBe(text);
    expect(r.kinds).toContain(kind);
  });
});

describe('the misses of issue #14', () => {
  it.each([
    ['aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG', `aws configure set aws_secret_access_key ${R}`],
    ['aws configure set default.aws_secret_access_key wJalrXUtnFEMI/K7MDENG', `aws configure set default.aws_secret_access_key ${R}`],
    ['MY_SECRET_VALUE=abc123 ./x', `MY_SECRET_VALUE=${R} ./x`],
    ['export JWT_SECRET_KEY_B64=abc123', `export JWT_SECRET_KEY_B64=${R}`],
    ['npm config set //registry.npmjs.org/:_authToken=abc123def', `npm config set //registry.npmjs.org/:_authToken=${R}`],
    ["echo '//npm.pkg.github.com/:_authToken=abc123def' > .npmrc", `echo '//npm.pkg.github.com/:_authToken=${R}' > .npmrc`],
    ['echo hunter2 | docker login -u me --password-stdin', `echo ${R} | docker login -u me --password-stdin`],
    ['echo "$PASS" | docker login -u me --password-stdin', 'echo "$PASS" | docker login -u me --password-stdin'],
    ['x=$(GITHUB_TOKEN=abc123 gh api user)', `x=$(GITHUB_TOKEN=${R} gh api user)`],
    ['echo "$(PGPASSWORD=hunter2 psql -c "select 1")"', `echo "$(PGPASSWORD=${R} psql -c "select 1")"`],
  ])('%s', (command, text) => {
    expect(redactSecrets(command).text).toBe(text);
  });

  it.each([
    'SECRET_NAME=db-password kubectl get secret "$SECRET_NAME"',
    'GITHUB_TOKEN_PATH=/run/token ./x',
    'echo done || docker login --password-stdin',
    'aws configure get aws_secret_access_key',
    'git config --global credential.helper store',
    'echo $((2*3)) $(date +%s)',
  ])('leaves alone: %s', (command) => {
    expect(redactSecrets(command)).toEqual({ text: command, kinds: [], count: 0 });
  });
});

describe('hand-written word checks match the expressions they replace', () => {
  const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=/;
  const PASSWORD_SWITCH = /^(mysql\w*|mariadb[\w-]*|psql|pg_dump|pg_dumpall|pg_restore|createdb|dropdb|vacuumdb|reindexdb|clusterdb)$/;
  const word = fc.array(fc.constantFrom('a', 'Z', '_', '1', '=', '-', ' ', 'é', 'mysql', 'mariadb', 'psql', 'x=y'), { maxLength: 6 }).map((a) => a.join(''));
  it.each(['A=1', '_a=', '1A=2', 'a b=c', '=x', 'PATH', 'Ab_9=x=y', ''])('assignmentName %j', (s) => {
    expect(assignmentName(s)).toBe(ASSIGNMENT.exec(s)?.[1] ?? null);
  });
  it.each(['mysql', 'mysqldump', 'mysql-x', 'mariadb', 'mariadb-dump', 'mariadb.x', 'psql', 'psqlx', 'pg_dump', 'clusterdb', 'x'])('isPasswordSwitchProgram %j', (s) => {
    expect(isPasswordSwitchProgram(s)).toBe(PASSWORD_SWITCH.test(s));
  });
  it('on generated words', () => {
    fc.assert(
      fc.property(word, (s) => assignmentName(s) === (ASSIGNMENT.exec(s)?.[1] ?? null) && isPasswordSwitchProgram(s) === PASSWORD_SWITCH.test(s)),
      { numRuns: 5000 },
    );
  });
});

describe('nameParts matches the expressions it replaces', () => {
  const RE = (name: string): string[] =>
    name
      .replace(/^-+/, '')
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .split(/[-_.]+/)
      .filter(Boolean);
  it.each(['AWS_SECRET_ACCESS_KEY', '--client-secret', 'apiToken', 'aB', 'AB', 'a1B', '--', '', 'x..y', 'ÄbC', 'getHTTPResponse', '-a-'])('%j', (n) => {
    expect(nameParts(n)).toEqual(RE(n));
  });
  it('on generated names', () => {
    const name = fc.array(fc.constantFrom('a', 'B', '1', '-', '_', '.', 'é', 'É', 'Z', 'z'), { maxLength: 10 }).map((a) => a.join(''));
    fc.assert(fc.property(name, (n) => JSON.stringify(nameParts(n)) === JSON.stringify(RE(n))), { numRuns: 10000 });
  });
});
