import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isSecretName, redactSecrets, REDACTED, type RedactionKind } from './redact.ts';

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
  ['psql postgresql://app:pw@db.internal:5432/app', `psql postgresql://app:${R}@db.internal:5432/app`, ['url_password']],
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
    const corpus = JSON.parse(fs.readFileSync('/work/shared/corpus/shell-snippets.json', 'utf8')) as Record<string, unknown[]>;
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
