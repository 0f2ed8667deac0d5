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
  ERR_WAPP_SESSION_TRANSITION: { status: 409, message: 'A sessão da conexão não pode passar para este estado agora.' },
  ERR_WABA_INVALID_DATA: { status: 400, message: 'Ops! Dados WABA incorretos. Verifique os dados da conexão.' },
  ERR_CHANNEL_UNAVAILABLE: { status: 503, message: 'O provedor da conexão não respondeu. Tente novamente em alguns segundos.' },
  ERR_WEBHOOK_SIGNATURE: { status: 401, message: 'Assinatura do webhook ausente ou inválida.' },
  // Terminal
  ERR_TERMINAL_FORBIDDEN: { status: 403, message: 'Usuário não autorizado a acessar o terminal' },
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
