/**
 * Error codes of spec section 8, declared once. The server throws AppError(code) and the
 * client maps the code back to the Portuguese text (i18n key `errors.<CODE>`).
 */
export const ERROR_CODES = {
  // Generic
  ERR_VALIDATION: { status: 400, message: 'Ops! Verifique os erros...' },
  ERR_NOT_FOUND: { status: 404, message: 'Recurso não encontrado.' },
  ERR_NO_PERMISSION: { status: 403, message: 'Você não tem permissão para acessar este recurso.' },
  ERR_INTERNAL: { status: 500, message: 'Ocorreu um erro não identificado.' },
  ERR_PAYLOAD_TOO_LARGE: { status: 413, message: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.' },
  ERR_UNSUPPORTED_FILE_TYPE: { status: 415, message: 'Arquivo rejeitado devido ao tamanho ou tipo incompatível.' },
  // HTTP-level refusals (the router, the static files): each keeps its 4xx status
  ERR_BAD_REQUEST: { status: 400, message: 'Requisição inválida.' },
  ERR_METHOD_NOT_ALLOWED: { status: 405, message: 'Método não permitido para este endereço.' },
  ERR_NOT_ACCEPTABLE: { status: 406, message: 'Formato de resposta não disponível.' },
  ERR_LENGTH_REQUIRED: { status: 411, message: 'Informe o tamanho do corpo da requisição.' },
  ERR_RANGE_NOT_SATISFIABLE: { status: 416, message: 'Intervalo solicitado indisponível.' },
  ERR_HEADERS_TOO_LARGE: { status: 431, message: 'Endereço ou cabeçalhos grandes demais.' },
  ERR_TOO_MANY_REQUESTS: { status: 429, message: 'Muitas requisições. Tente novamente em instantes.' },
  // Login and session
  ERR_INVALID_CREDENTIALS: { status: 401, message: 'Informe usuário e senha corretamente.' },
  ERR_LIMIT_MAX: { status: 429, message: 'Foram realizadas muitas tentativas de login. Tente novamente em 1 minuto' },
  // Login without a valid answer to the server's captcha challenge (GET /auth/captcha).
  ERR_CAPTCHA: { status: 400, message: 'Por favor, valide o CAPTCHA antes de continuar.' },
  ERR_SESSION_EXPIRED: { status: 403, message: 'A sessão expirou, você será redirecionado para o login.' },
  ERR_INVALID_TOKEN: { status: 401, message: 'Token inválido. Redirecionando para a página de login.' },
  ERR_TENANT_INACTIVE: { status: 401, message: 'A empresa está inativa, será desconectado em breve.' },
  ERR_NO_PERMISSION_API_ADMIN: { status: 403, message: 'Instalação não AUTORIZADA' },
  ERR_ASAAS_OVERDUE: { status: 402, message: 'Verifique o status do seu plano.' },
  ERR_USER_CREATION_DISABLED: { status: 403, message: 'Criação de usuários desabilitada pelo administrador.' },
  ERR_INVALID_RESET_TOKEN: { status: 400, message: 'Erro ao redefinir a senha.' },
  // A tenant created by sign-up logs in only once its e-mail is confirmed (link or super administrator).
  ERR_TENANT_EMAIL_NOT_CONFIRMED: { status: 403, message: 'Tenant inválido. Solicite ao Super Administrador a validação do email.' },
  ERR_INVALID_SIGNUP_TOKEN: { status: 400, message: 'Link de confirmação inválido, expirado ou já utilizado.' },
  ERR_NO_SIGNUP_FOUND: { status: 404, message: 'Cadastro pendente de confirmação não encontrado.' },
  // Platform e-mail (super administrator)
  ERR_SMTP_NOT_CONFIGURED: { status: 422, message: 'Nenhum servidor SMTP configurado: salve as configurações antes de testar.' },
  ERR_SMTP_TEST_FAILED: { status: 502, message: 'Não foi possível enviar o e-mail de teste.' },
  // Limits
  ERR_USER_LIMIT: { status: 400, message: 'Limite de usuários atingido.' },
  ERR_CONNECTION_LIMIT: { status: 400, message: 'Limite de conexões atingidas' },
  ERR_TENANT_PROTECTED: { status: 400, message: 'Não é possível deletar o tenant 1!' },
  ERR_USER_DELETE: { status: 400, message: 'Não é possível deletar o usuário.' },
  // Contacts
  ERR_NO_CONTACT_FOUND: { status: 404, message: 'Contato não encontrado.' },
  ERR_DUPLICATED_CONTACT: { status: 409, message: 'Já existe um contato com este número.' },
  ERR_CONTACT_TICKETS_REGISTERED: { status: 409, message: 'Não é possível excluir um contato que possui atendimentos.' },
  ERR_CONTACTS_NOT_EXISTS_WHATSAPP: { status: 400, message: 'O contato não existe no WhatsApp.' },
  // Tickets and messages
  ERR_NO_TICKET_FOUND: { status: 404, message: 'Atendimento não encontrado.' },
  ERR_CREATING_TICKET: { status: 500, message: 'Erro ao criar o atendimento.' },
  ERR_CREATING_MESSAGE: { status: 500, message: 'Erro ao criar a mensagem.' },
  ERR_NO_STATUS_SELECTED: { status: 400, message: 'Nenhum status selecionado.' },
  ERR_OTHER_OPEN_TICKET: { status: 409, message: 'Já existe um ticket aberto/pendente para esse contato.' },
  ERR_TICKET_ALREADY_USER: { status: 400, message: 'Ticket já pertence ao usuário selecionado.' },
  ERR_TICKET_ALREADY_YOURS: { status: 400, message: 'Ticket já pertence ao seu usuário.' },
  ERR_TICKET_ALREADY_QUEUE_USER: { status: 400, message: 'Ticket já pertence a esta fila e usuário.' },
  ERR_TICKET_STATUS_TRANSITION: { status: 409, message: 'Esta ação não é possível no status atual do atendimento.' },
  // Scheduled messages (/agendamentos): a schedule is changed or canceled only while it waits.
  ERR_SCHEDULE_NOT_PENDING: { status: 400, message: 'Só é possível alterar ou cancelar um agendamento pendente.' },
  ERR_MASS_TRANSFER_QUEUES: { status: 400, message: 'A transferência em massa exige que os dois usuários tenham as mesmas filas.' },
  // Auto-reply
  ERR_AUTO_REPLY_RELATIONED_TICKET: { status: 409, message: 'A auto resposta possui atendimentos vinculados.' },
  ERR_NO_AUTO_REPLY_FOUND: { status: 404, message: 'Auto resposta não encontrada.' },
  ERR_NO_STEP_AUTO_REPLY_FOUND: { status: 404, message: 'Etapa da auto resposta não encontrada.' },
  // Campaigns
  ERR_CAMPAIGN_CONTACTS_NOT_EXISTS_OR_NOT_ACESSIBLE: { status: 400, message: 'Contatos da campanha não existem ou não estão acessíveis.' },
  ERROR_CAMPAIGN_NOT_EXISTS: { status: 404, message: 'A campanha não existe.' },
  ERR_NO_CAMPAIGN_FOUND: { status: 404, message: 'Campanha não encontrada.' },
  ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING: { status: 400, message: 'Só é permitido alterar campanhas pendentes ou canceladas.' },
  ERROR_CAMPAIGN_DATE_NOT_VALID: { status: 400, message: 'Não é possível programar campanha com data menor que hoje.' },
  ERR_NO_CAMPAIGN_CONTACTS_NOT_FOUND: { status: 400, message: 'Campanha sem contatos vinculados.' },
  ERR_CAMPAIGN_CONTACTS_NOT_EXISTS: { status: 400, message: 'Contatos da campanha não existem.' },
  ERR_CAMPAIGN_CONTACTS: { status: 400, message: 'Erro nos contatos da campanha.' },
  // Campaign actions refused in the campaign's state or setup (spec section 8: unable to start, cannot cancel ...).
  ERR_CAMPAIGN_START: { status: 400, message: 'Não foi possível iniciar a campanha: a conexão de envio não existe mais.' },
  ERR_CAMPAIGN_CANCEL: { status: 400, message: 'Não é possível cancelar a campanha: só campanhas programadas ou em andamento podem ser canceladas.' },
  ERR_CAMPAIGN_DELETE_RUNNING: { status: 400, message: 'Não é possível excluir uma campanha programada ou em andamento: cancele-a antes.' },
  ERR_TEMPLATE_NOT_APPROVED: {
    status: 400,
    message: 'O modelo escolhido não está aprovado pela Meta (rejeitado, pausado ou desativado): escolha um modelo aprovado.',
  },
  // Bulk sends (/massa)
  ERR_NO_BULK_SEND_FOUND: { status: 404, message: 'Envio em massa não encontrado.' },
  ERR_BULK_SEND_CANCEL: { status: 400, message: 'Não é possível cancelar: o envio em massa já terminou.' },
  ERR_BULK_MEDIA_DOWNLOAD: { status: 400, message: 'Não foi possível baixar a mídia da URL informada.' },
  ERR_SMS_PROVIDER_NOT_CONFIGURED: {
    status: 422,
    message: 'Nenhum provedor de SMS está configurado: o envio de SMS em massa ainda não está disponível.',
  },
  // Quick replies
  ERR_NO_FAST_REPLY_FOUND: { status: 404, message: 'Mensagem rápida não encontrada.' },
  ERR_FAST_REPLY_EXISTS: { status: 409, message: 'Já existe uma mensagem rápida com esta chave.' },
  // Queues and tags
  ERR_NO_QUEUE_FOUND: { status: 404, message: 'Fila não encontrada.' },
  ERR_QUEUE_EXISTS: { status: 409, message: 'Já existe uma fila com este nome.' },
  ERR_QUEUE_TICKET_EXISTS: { status: 409, message: 'Não é possível excluir uma fila que possui atendimentos.' },
  ERR_NO_TAG_FOUND: { status: 404, message: 'Etiqueta não encontrada.' },
  ERR_TAG_EXISTS: { status: 409, message: 'Já existe uma etiqueta com este nome.' },
  ERR_TAG_CONTACTS_EXISTS: { status: 409, message: 'Não é possível excluir uma etiqueta vinculada a contatos.' },
  // Teams, kanban, lanes and demands (reasons)
  ERR_NO_TEAM_FOUND: { status: 404, message: 'Equipe não encontrada.' },
  ERR_TEAM_EXISTS: { status: 409, message: 'Já existe uma equipe com este nome.' },
  ERR_NO_KANBAN_FOUND: { status: 404, message: 'Coluna do kanban não encontrada.' },
  ERR_NO_LANE_FOUND: { status: 404, message: 'Lane não encontrada.' },
  ERR_NO_DEMAND_FOUND: { status: 404, message: 'Motivo não encontrado.' },
  ERR_DEMAND_EXISTS: { status: 409, message: 'Já existe um motivo com este nome.' },
  // Tenant settings (general tab)
  ERR_SETTINGS_CONFLICT: { status: 400, message: 'Estas configurações não podem ser ativadas ao mesmo tempo.' },
  // Other entities
  ERR_NO_SETTING_FOUND: { status: 404, message: 'Configuração não encontrada.' },
  ERR_NO_TENANT_FOUND: { status: 404, message: 'Empresa não encontrada.' },
  ERR_NO_USER_FOUND: { status: 404, message: 'Usuário não encontrado.' },
  // Users (e-mails are unique platform-wide; a tenant keeps at least one administrator)
  ERR_EMAIL_ALREADY_EXISTS: { status: 409, message: 'Já existe um usuário com este e-mail.' },
  ERR_LAST_ADMIN: { status: 400, message: 'A empresa precisa de pelo menos um administrador.' },
  ERR_NO_USER_TENANT_FOUND: { status: 404, message: 'Vínculo do usuário com a empresa não encontrado.' },
  ERR_USER_TENANT_EXISTS: { status: 409, message: 'O usuário já está vinculado a esta empresa.' },
  ERR_USER_TENANT_HOME: { status: 400, message: 'O vínculo do usuário com a própria empresa não pode ser alterado nem removido.' },
  ERR_NO_API_CONFIG: { status: 404, message: 'Configuração de API não encontrada.' },
  ERR_API_CONFIG_NOT_FOUND: { status: 404, message: 'Configuração de API não encontrada.' },
  ERR_NO_PLAN_FOUND: { status: 404, message: 'Plano não encontrado.' },
  // The super administrator's tenants and plans (issue #17)
  ERR_PLAN_IN_USE: { status: 409, message: 'Este plano tem empresas. Desative-o em vez de excluí-lo.' },
  ERR_TENANT_CHANNELS_CONNECTED: { status: 409, message: 'A empresa tem conexões conectadas. Desconecte-as ou force a exclusão.' },
  ERR_TENANT_DELETION_RUNNING: { status: 409, message: 'A exclusão desta empresa já está em andamento.' },
  ERR_SUPPORT_NOT_ALLOWED: { status: 400, message: 'Acesso de suporte indisponível para esta empresa.' },
  ERR_SUPPORT_NO_ADMIN: { status: 400, message: 'A empresa não tem administrador para o acesso de suporte.' },
  ERR_NO_SUPPORT_SESSION: { status: 404, message: 'Acesso de suporte não encontrado.' },
  // Channels and messaging
  ERR_NO_WAPP_FOUND: { status: 404, message: 'Conexão não encontrada.' },
  ERR_NO_DEF_WAPP_FOUND: { status: 404, message: 'Nenhuma conexão padrão. Verifique as conexões.' },
  // Chatbot flows (issue #14)
  ERR_NO_CHATFLOW_FOUND: { status: 404, message: 'Fluxo de chatbot não encontrado.' },
  ERR_CHATFLOW_INACTIVE: { status: 400, message: 'O fluxo de chatbot está inativo. Ative-o antes de usá-lo.' },
  ERR_CHATFLOW_NO_TEST_NUMBER: { status: 400, message: 'Informe um número de teste para o fluxo.' },
  ERR_WAPP_NOT_INITIALIZED: { status: 400, message: 'Sessão não inicializada.' },
  ERR_WAPP_INITIALIZED: { status: 400, message: 'Não conectado, reconectando. Tente novamente em alguns segundos.' },
  ERR_WAPP_INVALID_CONTACT: { status: 400, message: 'Este não é um número válido.' },
  ERR_WAPP_CHECK_CONTACT: { status: 400, message: 'Não foi possível verificar o contato.' },
  ERR_WAPP_DOWNLOAD_MEDIA: { status: 500, message: 'Não foi possível baixar a mídia.' },
  ERR_SENDING_WAPP_MSG: { status: 500, message: 'Erro ao enviar a mensagem.' },
  ERR_DELETE_WAPP_MSG: { status: 400, message: 'Não é possível apagar mensagens antigas.' },
  ERR_FETCH_WAPP_MSG: { status: 400, message: 'Erro ao buscar a mensagem, talvez ela seja muito antiga.' },
  ERR_CHANNEL_TYPE_UNSUPPORTED: { status: 400, message: 'Este tipo de conexão ainda não é suportado.' },
  ERR_CHANNEL_OPERATION_UNSUPPORTED: { status: 400, message: 'Esta operação não é suportada por este tipo de conexão.' },
  ERR_WAPP_GROUP_REFUSED: { status: 400, message: 'O WhatsApp recusou a operação no grupo.' },
  ERR_WAPP_SESSION_TRANSITION: { status: 409, message: 'A sessão da conexão não pode passar para este estado agora.' },
  ERR_WABA_INVALID_DATA: { status: 400, message: 'Ops! Dados WABA incorretos. Verifique os dados da conexão.' },
  ERR_WABA_WINDOW_CLOSED: {
    status: 400,
    message: 'A janela de 24 horas desta conversa está fechada: o cliente não escreve há mais de 24 horas. Envie um modelo de mensagem (template).',
  },
  ERR_CHANNEL_UNAVAILABLE: { status: 503, message: 'O provedor da conexão não respondeu. Tente novamente em alguns segundos.' },
  ERR_WEBHOOK_SIGNATURE: { status: 401, message: 'Assinatura do webhook ausente ou inválida.' },
  // Chatbot flows (/chat-flow): activation needs a runnable graph; every id a flow names is the tenant's.
  ERR_CHATFLOW_INVALID: { status: 400, message: 'O fluxo tem problemas que impedem a ativação. Corrija-os e tente novamente.' },
  ERR_CHATFLOW_REFERENCE: { status: 400, message: 'O fluxo usa filas, usuários, conexões, etiquetas, colunas do kanban ou fluxos que não existem nesta empresa.' },
  ERR_CHATFLOW_IN_USE: { status: 409, message: 'Outro fluxo inicia este fluxo; remova essa interação antes de excluí-lo.' },
  // Notifications (/notificacao and the bell)
  ERR_NO_NOTIFICATION_FOUND: { status: 404, message: 'Notificação não encontrada.' },
  // Internal chat (/chat-privado; the same texts as INTERNAL_CHAT_ERRORS in shared/schemas/internal-chat.ts)
  ERR_CHAT_CONVERSATION_NOT_FOUND: { status: 404, message: 'Conversa não encontrada.' },
  ERR_CHAT_MESSAGE_NOT_FOUND: { status: 404, message: 'Mensagem não encontrada.' },
  ERR_CHAT_NOT_OWN_MESSAGE: { status: 403, message: 'Só é possível alterar as próprias mensagens.' },
  ERR_CHAT_MESSAGE_DELETED: { status: 409, message: 'Mensagem apagada.' },
  /** The server's answer names the tenant's limit ('... limite de 4000 caracteres.'). */
  ERR_CHAT_MESSAGE_TOO_LONG: { status: 400, message: 'Mensagem maior que o limite de caracteres.' },
  ERR_CHAT_MESSAGE_EMPTY: { status: 400, message: 'Digite uma mensagem ou anexe um arquivo.' },
  ERR_CHAT_SELF: { status: 400, message: 'Não é possível conversar consigo mesmo.' },
  // Tenant payments (/pagamentostenants, /assinatura) and the platform licence
  ERR_NO_INVOICE_FOUND: { status: 404, message: 'Fatura não encontrada.' },
  ERR_PAYMENT_PROVIDER_NOT_CONFIGURED: {
    status: 422,
    message: 'O provedor de pagamentos não está configurado: informe a chave da API em Pagamentos.',
  },
  ERR_PAYMENT_PROVIDER: { status: 502, message: 'O provedor de pagamentos recusou a operação ou não respondeu.' },
  ERR_TENANT_NO_PLAN: { status: 400, message: 'A empresa não tem um plano com valor para cobrar.' },
  ERR_LICENCE_INVALID: { status: 400, message: 'Chave de licença inválida para este e-mail.' },
  ERR_LICENCE_RATE_LIMIT: { status: 429, message: 'Aguarde 1 minuto entre ativações da licença.' },
  // Terminal
  ERR_TERMINAL_FORBIDDEN: { status: 403, message: 'Usuário não autorizado a acessar o terminal' },
  // Job queues (/tenantsQueue): a restart is allowed QUEUE_RESTART_MAX times per backend run (spec section 9).
  ERR_NO_JOB_QUEUE_FOUND: { status: 404, message: 'Fila de tarefas não encontrada.' },
  ERR_NO_FAILED_JOB_FOUND: { status: 404, message: 'Tarefa com falha não encontrada (talvez já tenha sido reprocessada ou limpa).' },
  ERR_QUEUE_RESTART_LIMIT: {
    status: 429,
    message: 'Limite de 5 reinícios de fila atingido. Reinicie o backend para poder reiniciar as filas novamente.',
  },
  // Update (/atualizar): only a signed update_rapido.zip is staged (spec sections 5 and 9).
  ERR_UPDATE_FILE_NAME: { status: 400, message: 'Arquivo inválido: o arquivo de atualização deve se chamar update_rapido.zip.' },
  ERR_UPDATE_NO_PUBLIC_KEY: {
    status: 422,
    message: 'Nenhuma chave pública de atualização configurada (UPDATE_PUBLIC_KEY): nenhuma atualização é aplicada sem assinatura verificada.',
  },
  ERR_UPDATE_SIGNATURE: { status: 400, message: 'Assinatura da atualização ausente ou inválida: o arquivo não foi aplicado.' },
  ERR_UPDATE_INVALID_FILE: { status: 400, message: 'Arquivo de atualização inválido: não é um arquivo zip legível.' },
  ERR_UPDATE_UNSAFE_ENTRY: {
    status: 400,
    message: 'O arquivo de atualização contém um caminho inseguro (.., caminho absoluto ou link simbólico) e não foi aplicado.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_CODES, value);

/** Body of every error answered by the server. */
export interface ErrorBody {
  error: ErrorCode | string;
  message: string;
  /** For validation errors: which field and why. */
  fields?: { path: string; message: string }[];
  requestId?: string;
}
