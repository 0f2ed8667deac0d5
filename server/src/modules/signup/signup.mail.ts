import type { MailMessage } from '../../core/mailer';

/** The confirmation link lands on the web app's public route /signup/confirm/:token. */
export function signupConfirmationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/#/signup/confirm/${token}`;
}

export function signupConfirmationMail(input: { to: string; name: string; link: string; ttlHours: number }): MailMessage {
  return {
    to: input.to,
    subject: 'Confirme o seu cadastro',
    text: [
      `Olá, ${input.name}!`,
      '',
      'Recebemos o cadastro da sua empresa. Para ativar a conta, confirme o seu e-mail acessando o link abaixo:',
      '',
      input.link,
      '',
      `O link vale por ${input.ttlHours} horas e pode ser usado uma única vez.`,
      'Depois da confirmação, entre com o e-mail e a senha que você cadastrou.',
      'Se você não fez este cadastro, ignore este e-mail.',
    ].join('\n'),
  };
}
