/**
 * Português do Brasil — idioma padrão do produto.
 * Textos para o usuário final (atendentes e administradores). Placeholders `{{nome}}` são
 * preenchidos com os dados do erro; use os mesmos em todos os idiomas.
 */
import type { ErrorCode } from "../codes";
import type { ErrorText, UiTexts, ValidationRule } from "./types";

const ptBR: Record<ErrorCode, ErrorText> = {
  // --- genéricos / gateway ---
  ERR_INTERNAL: {
    title: "Erro interno",
    detail: "Ocorreu um erro inesperado no servidor. Tente novamente em instantes e, se o problema continuar, fale com o suporte.",
  },
  ERR_NOT_FOUND: {
    title: "Não encontrado",
    detail: "O registro solicitado não existe ou foi removido.",
  },
  ERR_ROUTE_NOT_FOUND: {
    title: "Endereço inexistente",
    detail: "O recurso solicitado não existe. Atualize a página e tente novamente.",
  },
  ERR_VALIDATION: {
    title: "Dados inválidos",
    detail: "O campo {{field}} não está preenchido corretamente. Corrija e tente novamente.",
  },
  ERR_INVALID_JSON: {
    title: "Requisição inválida",
    detail: "Não foi possível ler os dados enviados. Atualize a página e tente novamente.",
  },
  ERR_PAYLOAD_TOO_LARGE: {
    title: "Envio muito grande",
    detail: "O conteúdo enviado ultrapassa o limite de {{maxSize}}. Reduza o tamanho e tente novamente.",
  },
  ERR_UNSUPPORTED_MEDIA_TYPE: {
    title: "Formato não suportado",
    detail: "O tipo de arquivo ou conteúdo enviado não é aceito.",
  },
  ERR_REQUEST_TIMEOUT: {
    title: "Tempo esgotado",
    detail: "O servidor demorou demais para responder. Tente novamente.",
  },
  ERR_RATE_LIMITED: {
    title: "Muitas tentativas",
    detail: "Você fez muitas solicitações em pouco tempo. Aguarde {{retryAfter}} segundos e tente novamente.",
  },
  ERR_SERVICE_UNAVAILABLE: {
    title: "Serviço indisponível",
    detail: "O sistema está temporariamente fora do ar. Tente novamente em alguns minutos.",
  },
  ERR_ORIGIN_NOT_ALLOWED: {
    title: "Acesso bloqueado",
    detail: "Este endereço não tem permissão para acessar o sistema. Fale com o administrador.",
  },
  ERR_CONFLICT: {
    title: "Conflito de dados",
    detail: "O registro já existe ou foi alterado por outra pessoa. Atualize a página e tente novamente.",
  },

  // --- sessão e login ---
  ERR_SESSION_EXPIRED: {
    title: "Sessão expirada",
    detail: "Sua sessão expirou. Faça login novamente.",
  },
  ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE: {
    title: "Sessão encerrada",
    detail: "Sua sessão foi encerrada porque sua conta foi acessada em outro dispositivo ou navegador. Faça login novamente.",
  },
  ERR_SESSION_REQUIRED: {
    title: "Login necessário",
    detail: "Faça login para continuar.",
  },
  ERR_TOKEN_INVALID: {
    title: "Acesso inválido",
    detail: "Não foi possível validar o seu acesso. Faça login novamente.",
  },
  ERR_TOKEN_EXPIRED: {
    title: "Acesso expirado",
    detail: "Seu acesso expirou. Faça login novamente para continuar.",
  },
  ERR_INVALID_CREDENTIALS: {
    title: "Dados de acesso incorretos",
    detail: "E-mail, telefone ou senha incorretos. Confira e tente novamente.",
  },
  ERR_USER_NOT_FOUND: {
    title: "Usuário não encontrado",
    detail: "Não encontramos nenhum usuário com esses dados.",
  },
  ERR_USER_INACTIVE: {
    title: "Usuário inativo",
    detail: "Sua conta está desativada. Fale com o administrador da sua empresa.",
  },
  ERR_USER_DELETED: {
    title: "Usuário excluído",
    detail: "Esta conta foi excluída e não pode mais ser usada. Fale com o administrador da sua empresa.",
  },
  ERR_LOGIN_OUTSIDE_HOURS: {
    title: "Fora do horário de acesso",
    detail: "Seu usuário só pode acessar o sistema nos horários cadastrados. Tente novamente dentro do seu horário.",
  },
  ERR_PASSKEY_REQUIRED: {
    title: "Use sua chave de acesso",
    detail: "Este usuário tem uma chave de acesso (passkey) cadastrada. Entre pelo botão de chave de acesso.",
  },
  ERR_EMAIL_OR_PHONE_REQUIRED: {
    title: "Informe e-mail ou telefone",
    detail: "Preencha seu e-mail ou número de telefone para continuar.",
  },
  ERR_NO_PERMISSION: {
    title: "Sem permissão",
    detail: "Você não tem permissão para realizar esta ação.",
  },
  ERR_USER_CREATION_DISABLED: {
    title: "Cadastro de usuários desativado",
    detail: "A criação de novos usuários está desativada. Fale com o administrador.",
  },
  ERR_ADMIN_CREATION_DISABLED: {
    title: "Cadastro de administradores desativado",
    detail: "Não é permitido criar usuários com perfil de administrador.",
  },
  ERR_FREE_PLAN_USER_LIMIT: {
    title: "Limite de usuários do plano gratuito",
    detail: "O plano gratuito permite até {{max}} usuários e você já tem {{current}}. Faça upgrade do seu plano para cadastrar mais.",
  },
  ERR_CANNOT_DEACTIVATE_ADMIN: {
    title: "Ação não permitida",
    detail: "Usuários administradores não podem ser desativados.",
  },
  ERR_PHONE_ALREADY_REGISTERED: {
    title: "Telefone já cadastrado",
    detail: "Já existe um usuário com este número de telefone.",
  },
  ERR_EMAIL_ALREADY_REGISTERED: {
    title: "E-mail já cadastrado",
    detail: "Já existe um usuário com este e-mail.",
  },
  ERR_USER_LIMIT_EXCEEDED: {
    title: "Limite de usuários atingido",
    detail: "Sua empresa já usa {{current}} de {{max}} usuários permitidos. Faça upgrade do seu plano para cadastrar mais.",
  },
  ERR_CONTACT_FINANCE: {
    title: "Fale com o financeiro",
    detail: "Há uma pendência na sua conta. Entre em contato com o setor financeiro para regularizar o acesso.",
  },
  ERR_CANNOT_DELETE_SELF: {
    title: "Exclusão não permitida",
    detail: "Você não pode excluir a sua própria conta.",
  },
  ERR_NEW_USER_REQUIRED: {
    title: "Escolha um usuário",
    detail: "Para excluir este usuário, escolha quem vai receber os atendimentos dele.",
  },
  ERR_PASSWORD_WEAK: {
    title: "Senha fraca",
    detail: "A senha deve ter pelo menos 8 caracteres, com letra maiúscula, letra minúscula e número, usando apenas letras e números.",
  },
  ERR_PASSWORD_MISMATCH: {
    title: "As senhas não conferem",
    detail: "A confirmação precisa ser igual à senha digitada.",
  },
  ERR_RESET_TOKEN_EXPIRED: {
    title: "Link expirado",
    detail: "O link de redefinição de senha vale por 5 minutos e já expirou. Solicite um novo link.",
  },
  ERR_RESET_TOKEN_INVALID: {
    title: "Link inválido",
    detail: "Este link de redefinição de senha é inválido ou já foi usado. Solicite um novo link.",
  },
  ERR_CONFIG_UPDATE: {
    title: "Erro ao salvar configuração",
    detail: "Não foi possível atualizar a configuração. Confira os dados e tente novamente.",
  },
  ERR_MAIL_NOT_CONFIGURED: {
    title: "E-mail não configurado",
    detail: "O envio de e-mails não está configurado. Fale com o administrador.",
  },
  ERR_MAIL_SEND_FAILED: {
    title: "Falha ao enviar e-mail",
    detail: "Não foi possível enviar o e-mail. Tente novamente mais tarde.",
  },

  // --- contatos ---
  ERR_CONTACT_NOT_FOUND: {
    title: "Contato não encontrado",
    detail: "O contato não existe ou foi excluído.",
  },
  ERR_CONTACT_DUPLICATED: {
    title: "Contato duplicado",
    detail: "Já existe um contato com este número.",
  },
  ERR_CONTACT_HAS_TICKETS: {
    title: "Contato com atendimentos",
    detail: "Este contato tem atendimentos vinculados e não pode ser excluído.",
  },
  ERR_CONTACT_LIMIT: {
    title: "Limite de contatos atingido",
    detail: "Você já tem {{current}} de {{max}} contatos permitidos no seu plano. Faça upgrade para cadastrar mais.",
  },
  ERR_CONTACT_NUMBER_INVALID: {
    title: "Número inválido",
    detail: "O número é inválido ou não tem WhatsApp. Informe o código do país, o DDD e o número, por exemplo 5511912345678.",
  },
  ERR_CONTACT_OTHER_OPEN_TICKET: {
    title: "Atendimento em aberto",
    detail: "Já existe outro atendimento aberto para este contato. Você pode abrir o atendimento existente.",
  },
  ERR_CONTACT_ALREADY_EXISTS: {
    title: "Contato já cadastrado",
    detail: "Já existe um contato cadastrado com esses dados.",
  },

  // --- atendimentos, mensagens, WhatsApp ---
  ERR_TICKET_NOT_FOUND: {
    title: "Atendimento não encontrado",
    detail: "O atendimento não existe ou foi excluído.",
  },
  ERR_NO_STATUS_SELECTED: {
    title: "Nenhum status selecionado",
    detail: "Selecione pelo menos um status para continuar.",
  },
  ERR_MESSAGE_TOO_OLD_TO_DELETE: {
    title: "Não é possível apagar",
    detail: "Mensagens do WhatsApp só podem ser apagadas até 5 minutos após o envio.",
  },
  ERR_MESSAGE_NOT_SENT: {
    title: "Mensagem não enviada",
    detail: "Não foi possível enviar ou encaminhar a mensagem. Verifique a conexão e tente novamente.",
  },
  ERR_FORWARD_LIMIT: {
    title: "Limite de encaminhamento",
    detail: "Você pode encaminhar no máximo 10 mensagens por vez.",
  },
  ERR_SESSION_NOT_INITIALIZED: {
    title: "Conexão não iniciada",
    detail: "A sessão do WhatsApp ainda não foi iniciada. Escaneie o QR Code ou aguarde a conexão.",
  },
  ERR_WHATSAPP_ALREADY_LINKED: {
    title: "WhatsApp já conectado",
    detail: "Esta conexão já está vinculada a um celular. Para vincular outro número, use Redefinir e leia um novo QR Code ou peça um novo código.",
  },
  ERR_NO_DEFAULT_CONNECTION: {
    title: "Sem conexão padrão",
    detail: "Nenhuma conexão foi definida como padrão. Defina uma na tela de conexões.",
  },
  ERR_MEDIA_DOWNLOAD_FAILED: {
    title: "Falha ao baixar mídia",
    detail: "Não foi possível baixar o arquivo de mídia. Tente novamente.",
  },
  ERR_TICKET_ALREADY_ASSIGNED: {
    title: "Transferência não realizada",
    detail: "Este atendimento já pertence ao usuário ou à fila selecionada.",
  },

  // --- respostas automáticas e fluxos ---
  ERR_AUTO_REPLY_NOT_FOUND: {
    title: "Resposta automática não encontrada",
    detail: "A resposta automática ou a etapa não foi encontrada.",
  },
  ERR_AUTO_REPLY_IN_USE: {
    title: "Resposta automática em uso",
    detail: "Esta resposta automática está vinculada a um atendimento e não pode ser excluída.",
  },
  ERR_FLOW_NOT_FOUND: {
    title: "Fluxo não encontrado",
    detail: "O fluxo ou a etapa não foi encontrado.",
  },
  ERR_FLOW_IN_USE: {
    title: "Fluxo em uso",
    detail: "Este fluxo está sendo usado em atendimentos ou serviços e não pode ser excluído.",
  },
  ERR_AUTO_REPLY_SINGLE_INITIAL_STEP: {
    title: "Etapa inicial duplicada",
    detail: "Cada resposta automática pode ter apenas uma etapa inicial.",
  },
  ERR_CHATBOT_NOT_OWNER: {
    title: "Atendimento fora do chatbot",
    detail: "Este atendimento não está mais com este chatbot (um atendente o assumiu ou outro bot o recebeu).",
  },

  // --- campanhas ---
  ERR_CAMPAIGN_NOT_FOUND: {
    title: "Campanha não encontrada",
    detail: "A campanha não existe ou você não tem acesso a ela.",
  },
  ERR_CAMPAIGN_CONTACTS_MISSING: {
    title: "Campanha sem contatos",
    detail: "Adicione contatos à campanha antes de continuar.",
  },
  ERR_CAMPAIGN_NOT_EDITABLE: {
    title: "Campanha não editável",
    detail: "Só é possível editar campanhas pendentes ou canceladas.",
  },
  ERR_CAMPAIGN_DATE_INVALID: {
    title: "Data da campanha inválida",
    detail: "Informe uma data de início válida e posterior ao momento atual.",
  },
  ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE: {
    title: "Contatos obrigatórios",
    detail: "Vincule contatos à campanha para poder agendá-la.",
  },
  ERR_CAMPAIGN_PAST_DATE: {
    title: "Data no passado",
    detail: "Não é possível agendar uma campanha com data passada.",
  },

  // --- SMS ---
  ERR_SMS_INVALID_TOKEN: {
    title: "Token de SMS inválido",
    detail: "O token do serviço de SMS é inválido. Entre em contato com a sua revenda.",
  },
  ERR_SMS_INSUFFICIENT_CREDITS: {
    title: "Créditos insuficientes",
    detail: "Você não tem créditos de SMS suficientes para todos os destinatários. Adquira mais créditos para continuar.",
  },

  // --- outros ---
  ERR_QUICK_MESSAGE_NOT_FOUND: {
    title: "Resposta rápida não encontrada",
    detail: "A resposta rápida não existe ou foi excluída.",
  },
  ERR_QUICK_MESSAGE_EXISTS: {
    title: "Resposta rápida já existe",
    detail: "Já existe uma resposta rápida com este atalho.",
  },
  ERR_QUEUE_NOT_FOUND: {
    title: "Fila não encontrada",
    detail: "A fila não existe ou foi excluída.",
  },
  ERR_QUEUE_HAS_TICKETS: {
    title: "Fila com atendimentos",
    detail: "Esta fila tem atendimentos vinculados e não pode ser excluída.",
  },
  ERR_TAG_NOT_FOUND: {
    title: "Etiqueta não encontrada",
    detail: "A etiqueta não existe ou foi excluída.",
  },
  ERR_TAG_HAS_CONTACTS: {
    title: "Etiqueta em uso",
    detail: "Esta etiqueta está vinculada a contatos e não pode ser excluída.",
  },
  ERR_SETTING_NOT_FOUND: {
    title: "Configuração não encontrada",
    detail: "A configuração solicitada não existe.",
  },
  ERR_TENANT_NOT_FOUND: {
    title: "Empresa não encontrada",
    detail: "A empresa não existe ou foi removida.",
  },
  ERR_TENANT_INACTIVE: {
    title: "Empresa inativa",
    detail: "O acesso desta empresa está desativado. Fale com o suporte ou com a sua revenda.",
  },
  ERR_API_CONFIG_NOT_FOUND: {
    title: "Configuração de API não encontrada",
    detail: "A configuração de API não existe ou foi excluída.",
  },
  ERR_SCHEDULE_NOT_FOUND: {
    title: "Agendamento não encontrado",
    detail: "O agendamento não existe ou foi excluído.",
  },
  ERR_SCHEDULE_CONFLICT: {
    title: "Conflito de horário",
    detail: "Já existe um agendamento neste horário. Escolha outro horário.",
  },
  ERR_SCHEDULE_INVALID_DATE: {
    title: "Data inválida",
    detail: "Informe uma data válida que não esteja no passado.",
  },
  ERR_SCHEDULE_INVALID_HOUR: {
    title: "Horário inválido",
    detail: "Informe um horário válido que não esteja no passado.",
  },
  ERR_REQUIRED_BODY: {
    title: "Mensagem obrigatória",
    detail: "Escreva a mensagem antes de continuar.",
  },
  ERR_REQUIRED_CONTACT: {
    title: "Contato obrigatório",
    detail: "Selecione um contato para continuar.",
  },
  ERR_REQUIRED_SEND_AT: {
    title: "Data de envio obrigatória",
    detail: "Informe a data e o horário de envio.",
  },
  ERR_REQUIRED_CONNECTION: {
    title: "Conexão obrigatória",
    detail: "Selecione uma conexão para continuar.",
  },
  ERR_REQUIRED_USER: {
    title: "Usuário obrigatório",
    detail: "Selecione um usuário para continuar.",
  },
  ERR_INVALID_INTERVAL: {
    title: "Intervalo inválido",
    detail: "Os valores informados para o intervalo são inválidos. Confira o mínimo e o máximo e tente novamente.",
  },
  ERR_USER_OUTSIDE_AVAILABILITY: {
    title: "Fora da disponibilidade",
    detail: "O horário escolhido está fora da disponibilidade do usuário.",
  },
  ERR_USER_NO_AVAILABILITY_DAY: {
    title: "Usuário indisponível no dia",
    detail: "O usuário não tem horários disponíveis nesta data.",
  },
  ERR_NO_FILE_UPLOADED: {
    title: "Nenhum arquivo enviado",
    detail: "Selecione um arquivo para enviar.",
  },
  ERR_SERVICE_NOT_FOUND_FOR_USER: {
    title: "Serviço não encontrado",
    detail: "Este serviço não está disponível para o usuário selecionado.",
  },
  ERR_INVALID_IMAGE_FORMAT: {
    title: "Formato de imagem inválido",
    detail: "Envie uma imagem em um formato aceito, como JPG ou PNG.",
  },
  ERR_BUSINESS_HOURS_NOT_FOUND: {
    title: "Horário não encontrado",
    detail: "O horário de atendimento não existe ou foi excluído.",
  },
  ERR_BUSINESS_HOURS_TARGET_REQUIRED: {
    title: "Escolha a quem se aplica",
    detail: "Horários por fila, usuário ou WhatsApp precisam de pelo menos um alvo escolhido.",
  },
  ERR_BUSINESS_HOURS_INVALID_RANGE: {
    title: "Horário inválido",
    detail: "O início deve ser antes do fim, e a manhã deve terminar antes de a tarde começar ({{day}}).",
  },
  ERR_BUSINESS_HOURS_CONFLICT: {
    title: "Horário já definido",
    detail: "Já existe um horário ativo para este alvo. Edite o existente ou desative-o antes.",
  },
  ERR_HOLIDAY_NOT_FOUND: {
    title: "Feriado não encontrado",
    detail: "O feriado não existe ou foi excluído.",
  },
  ERR_URL_NOT_ALLOWED: {
    title: "Endereço não permitido",
    detail: "Este endereço aponta para uma rede interna (localhost, rede privada ou link-local) e não pode ser usado. Use um endereço público.",
  },

  // --- licença e plano ---
  ERR_LICENSE_INVALID: {
    title: "Licença inválida",
    detail: "A licença informada é inválida. Confira os dados ou fale com a sua revenda.",
  },
  ERR_LICENSE_EXPIRED: {
    title: "Licença expirada",
    detail: "Sua licença expirou. Renove-a para continuar usando o sistema.",
  },
  ERR_LICENSE_BLOCKED: {
    title: "Licença bloqueada",
    detail: "Sua licença está bloqueada. Entre em contato com o suporte ou com a sua revenda.",
  },
  ERR_LICENSE_WRONG_DOMAIN: {
    title: "Domínio não autorizado",
    detail: "Esta licença não é válida para este domínio.",
  },
  ERR_LICENSE_WRONG_CODE: {
    title: "Código de licença incorreto",
    detail: "O código da licença não confere. Verifique e tente novamente.",
  },
  ERR_LICENSE_TIER_REQUIRED: {
    title: "Recurso não incluído no plano",
    detail: "Este recurso exige a licença {{requiredTier}} ou superior. Faça upgrade para usá-lo.",
  },
  ERR_FREE_PLAN_VIOLATION: {
    title: "Indisponível no plano gratuito",
    detail: "Esta ação não é permitida no plano gratuito. Faça upgrade para continuar.",
  },
  ERR_FREE_PLAN_QUEUE_LIMIT: {
    title: "Limite de filas",
    detail: "O plano gratuito permite apenas uma fila ativa. Faça upgrade para usar mais filas.",
  },
  ERR_FREE_PLAN_CHATFLOW_LIMIT: {
    title: "Limite de fluxos",
    detail: "O plano gratuito permite apenas um fluxo de chatbot ativo. Faça upgrade para ativar mais.",
  },
  ERR_FREE_PLAN_CONNECTION_LIMIT: {
    title: "Limite de conexões do plano gratuito",
    detail: "O plano gratuito permite apenas uma conexão. Faça upgrade para adicionar mais.",
  },
  ERR_CONNECTION_LIMIT: {
    title: "Limite de conexões atingido",
    detail: "Você já tem {{current}} de {{max}} conexões permitidas. Faça upgrade do seu plano para adicionar mais.",
  },
  ERR_RESELLER_CONNECTION_LIMIT: {
    title: "Limite da revenda atingido",
    detail: "O limite total de conexões da sua revenda foi atingido. Entre em contato com a sua revenda.",
  },

  // --- chave de acesso (passkey) ---
  ERR_PASSKEY_NOT_SUPPORTED: {
    title: "Chave de acesso não suportada",
    detail: "Seu navegador ou dispositivo não é compatível com chaves de acesso. Use outro navegador ou entre com sua senha.",
  },
  ERR_PASSKEY_HTTPS_REQUIRED: {
    title: "Conexão segura necessária",
    detail: "Chaves de acesso só funcionam em endereços com HTTPS.",
  },
  ERR_PASSKEY_CHALLENGE_MISSING: {
    title: "Dados de verificação ausentes",
    detail: "Os dados de verificação da chave de acesso não foram recebidos. Tente novamente.",
  },
  ERR_PASSKEY_NOT_RECOGNISED: {
    title: "Chave não reconhecida",
    detail: "Esta chave de acesso não foi reconhecida. Use outra chave ou entre com sua senha.",
  },
  ERR_PASSKEY_TIMEOUT: {
    title: "Verificação expirada",
    detail: "A verificação da chave de acesso demorou demais. Tente novamente.",
  },
  ERR_PASSKEY_CANCELLED: {
    title: "Verificação cancelada",
    detail: "A verificação com a chave de acesso foi cancelada.",
  },
  ERR_PASSKEY_DENIED: {
    title: "Permissão negada",
    detail: "O uso da chave de acesso não foi autorizado. Permita no navegador ou no dispositivo e tente novamente.",
  },
  ERR_PASSKEY_ABORTED: {
    title: "Operação interrompida",
    detail: "A operação com a chave de acesso foi interrompida. Tente novamente.",
  },
  ERR_PASSKEY_INVALID_STATE: {
    title: "Chave já cadastrada",
    detail: "Esta chave de acesso já está cadastrada neste dispositivo ou não pode ser usada agora.",
  },
  ERR_PASSKEY_SECURITY: {
    title: "Erro de segurança",
    detail: "A chave de acesso foi bloqueada por uma regra de segurança do navegador. Confira se você está no endereço correto do sistema.",
  },
  ERR_PASSKEY_USER_NOT_FOUND: {
    title: "Usuário da chave não encontrado",
    detail: "Nenhum usuário foi encontrado para esta chave de acesso.",
  },
  ERR_PASSKEY_NONE_FOUND: {
    title: "Nenhuma chave cadastrada",
    detail: "Não há chave de acesso cadastrada para este usuário. Entre com sua senha e cadastre uma.",
  },

  // --- voz ---
  ERR_VOICE_NUMBER_NOT_EXISTS: {
    title: "Número inexistente",
    detail: "O número chamado não existe ou não tem WhatsApp.",
  },
  ERR_VOICE_LINE_BUSY: {
    title: "Linha ocupada",
    detail: "Todas as linhas estão ocupadas no momento. Tente mais tarde ou faça upgrade do plano para ter mais linhas.",
  },

  // --- diversos ---
  ERR_AI_VOICES_LOAD: {
    title: "Erro ao carregar vozes",
    detail: "Não foi possível carregar as vozes de IA. Verifique as credenciais do provedor.",
  },
  ERR_CHAT_BUILDER_URL: {
    title: "Construtor de chatbot indisponível",
    detail: "Não foi possível carregar o endereço do construtor de chatbot. Verifique a configuração ou tente mais tarde.",
  },
  ERR_CHANNEL_UNSUPPORTED: {
    title: "Recurso não suportado pelo canal",
    detail: "Este canal não permite esse tipo de mensagem ou ação.",
  },
  ERR_GIF_SEARCH_NOT_CONFIGURED: {
    title: "Busca de GIFs não configurada",
    detail: "A busca de GIFs precisa de uma chave de API do GIPHY nas configurações globais da plataforma. Peça ao administrador da plataforma para cadastrá-la.",
  },
  ERR_GIF_SEARCH_FAILED: {
    title: "Busca de GIFs indisponível",
    detail: "O serviço de GIFs não respondeu como esperado. Tente novamente em instantes.",
  },
  ERR_CONNECTION_NOT_FOUND: {
    title: "Conexão não encontrada",
    detail: "A conexão não existe ou foi removida.",
  },
  ERR_CONNECTION_NAME_IN_USE: {
    title: "Nome de conexão em uso",
    detail: "Já existe uma conexão com esse nome. Escolha outro nome.",
  },
  ERR_CONNECTION_DELETE_CONFIRMATION: {
    title: "Confirmação necessária",
    detail: "Para excluir a conexão, digite EXCLUIR ou o nome da conexão.",
  },
  ERR_CONNECTION_TRANSFER_SAME: {
    title: "Conexões iguais",
    detail: "Escolha uma conexão de origem e uma de destino diferentes.",
  },
  ERR_PLUGIN_NOT_FOUND: {
    title: "Módulo não encontrado",
    detail: "O módulo solicitado não está instalado.",
  },
  ERR_PLUGIN_DISABLED: {
    title: "Módulo desativado",
    detail: "Este módulo não está ativo para a sua empresa. Fale com o administrador.",
  },
  ERR_PLUGIN_UNAVAILABLE: {
    title: "Módulo indisponível",
    detail: "O módulo não está em execução no momento. Tente novamente em instantes.",
  },
  ERR_PLUGIN_NOT_ALLOWED: {
    title: "Módulo não liberado",
    detail: "Este módulo não foi liberado para a sua empresa. Fale com a sua revenda.",
  },
  ERR_PLUGIN_VERSION_UNAVAILABLE: {
    title: "Versão do módulo indisponível",
    detail: "A versão do módulo usada por esta conexão não está instalada. Fale com o suporte.",
  },
  ERR_CONNECTION_INACTIVE: {
    title: "Conexão inativa",
    detail: "O canal desta conexão está desativado para a sua empresa: nada é enviado nem recebido por ela até que seja reativado.",
  },
  ERR_ARCHIVE_INVALID: {
    title: "Pacote de módulo inválido",
    detail: "O arquivo não é um pacote de módulo (um tar compactado com gzip gerado pelo plugin-sdk pack) ou está corrompido.",
  },
  ERR_ARCHIVE_CHECKSUM_MISMATCH: {
    title: "Checksum não confere",
    detail: "O checksum SHA-256 do pacote não é o que foi enviado com ele. O arquivo mudou no caminho: gere e envie novamente.",
  },
  ERR_ARCHIVE_PATH_UNSAFE: {
    title: "Caminho inseguro no pacote",
    detail: "O pacote contém um item com caminho absoluto, um passo '..', um link ou um arquivo especial. Nada foi gravado.",
  },
  ERR_ARCHIVE_TOO_LARGE: {
    title: "Pacote grande demais",
    detail: "O pacote do módulo é maior do que o marketplace aceita.",
  },
  ERR_ARCHIVE_MANIFEST_INVALID: {
    title: "Manifesto do módulo inválido",
    detail: "O package.json do pacote está ausente ou o manifesto é inválido, ou faltam arquivos que o manifesto cita.",
  },
  ERR_MARKETPLACE_TOKEN_INVALID: {
    title: "Token de publicador inválido",
    detail: "O token de publicador está ausente, incorreto ou revogado. Peça um novo ao administrador do marketplace.",
  },
  ERR_MARKETPLACE_PUBLISHER_NOT_FOUND: {
    title: "Publicador não encontrado",
    detail: "Este publicador não existe.",
  },
  ERR_MARKETPLACE_PUBLISHER_EXISTS: {
    title: "Publicador já existe",
    detail: "Já existe um publicador com este e-mail.",
  },
  ERR_MARKETPLACE_PLUGIN_OWNED: {
    title: "Módulo pertence a outro publicador",
    detail: "Este id de módulo foi publicado por outro publicador. Escolha outro id.",
  },
  ERR_MARKETPLACE_PLUGIN_NOT_FOUND: {
    title: "Módulo fora do catálogo",
    detail: "O marketplace não tem módulo com este id.",
  },
  ERR_MARKETPLACE_VERSION_NOT_FOUND: {
    title: "Versão não encontrada",
    detail: "O marketplace não tem esta versão do módulo.",
  },
  ERR_MARKETPLACE_VERSION_EXISTS: {
    title: "Versão já publicada",
    detail: "Esta versão do módulo já foi publicada. Aumente o número da versão e publique novamente.",
  },
  ERR_PLUGIN_INSTALLS_DISABLED: {
    title: "Instalação de módulos desligada",
    detail: "Esta plataforma não executa módulos instalados pelo marketplace (PLUGIN_INSTALLS).",
  },
  ERR_PLUGIN_FORBIDDEN: {
    title: "Não permitido a módulos",
    detail: "Um módulo só pode chamar, em seu próprio nome, as ações do núcleo destinadas a módulos: esta chamada foi recusada.",
  },
  ERR_PLUGIN_NOT_INSTALLED: {
    title: "Módulo não instalado",
    detail: "Este módulo, ou esta versão dele, não está instalado na plataforma.",
  },
  ERR_PLUGIN_ALREADY_INSTALLED: {
    title: "Versão já em execução",
    detail: "Esta versão do módulo já está instalada e em execução.",
  },
  ERR_PLUGIN_BUNDLED: {
    title: "Módulo que acompanha a plataforma",
    detail: "Um módulo que acompanha a plataforma tem este id: ele não pode ser instalado, substituído nem removido pelo marketplace.",
  },
  ERR_PLUGIN_IN_USE: {
    title: "Módulo em uso",
    detail: "Ainda há conexões usando este módulo. Exclua ou mova essas conexões antes de desinstalá-lo.",
  },
  ERR_PLUGIN_ROLLBACK_UNAVAILABLE: {
    title: "Sem versão para voltar",
    detail: "Não há versão anterior instalada deste módulo.",
  },
  ERR_PLUGIN_INSTALL_FAILED: {
    title: "O módulo não iniciou",
    detail: "O módulo foi descompactado, mas o serviço dele não iniciou. O estado anterior foi mantido.",
  },
  ERR_MEDIA_TOO_LARGE: {
    title: "Arquivo muito grande",
    detail: "Cada arquivo pode ter no máximo 10 MB, e o envio todo no máximo 30 MB.",
  },
  ERR_IMPORT_NOT_FOUND: {
    title: "Importação não encontrada",
    detail: "Essa importação não existe ou já expirou.",
  },
  ERR_QUICK_MESSAGE_AMBIGUOUS: {
    title: "Atalho ambíguo",
    detail: "Mais de uma mensagem rápida começa com esse atalho. Digite um atalho mais exato.",
  },
  ERR_SEARCH_TOO_SHORT: {
    title: "Busca muito curta",
    detail: "Digite pelo menos 2 letras para buscar.",
  },
  ERR_TICKET_REOPEN_BLOCKED: {
    title: "Reabertura bloqueada",
    detail: "Este atendimento foi encerrado há pouco tempo e ainda não pode ser reaberto.",
  },
  ERR_TRANSFER_TARGET_REQUIRED: {
    title: "Destino obrigatório",
    detail: "Escolha um usuário ou uma fila para transferir o atendimento.",
  },
  ERR_MESSAGE_NOT_FOUND: {
    title: "Mensagem não encontrada",
    detail: "A mensagem não existe ou foi removida.",
  },
  ERR_MESSAGE_EDIT_NOT_ALLOWED: {
    title: "Edição não permitida",
    detail: "Só é possível editar mensagens de texto enviadas por você.",
  },
  ERR_TAG_EXISTS: {
    title: "Etiqueta já existe",
    detail: "Já existe uma etiqueta com esse nome.",
  },
  ERR_GROUP_PARTICIPANT_LIMIT: {
    title: "Limite de participantes",
    detail: "Um grupo pode ter no máximo 1023 participantes.",
  },
  ERR_GROUP_PICTURE_TOO_LARGE: {
    title: "Foto do grupo muito grande",
    detail: "A foto do grupo pode ter no máximo 5 MB.",
  },
  ERR_WHATSAPP_GROUP_REFUSED: {
    title: "O WhatsApp recusou a operação no grupo",
    detail: "O WhatsApp não aceitou o pedido para este grupo. Verifique se o número conectado é administrador do grupo e tente novamente.",
  },
};

export default ptBR;

export const validation: Record<ValidationRule, string> = {
  required: "O campo {{field}} é obrigatório.",
  string: "O campo {{field}} deve ser um texto.",
  stringEmpty: "O campo {{field}} não pode ficar vazio.",
  stringMin: "O campo {{field}} deve ter pelo menos {{expected}} caracteres.",
  stringMax: "O campo {{field}} deve ter no máximo {{expected}} caracteres.",
  stringLength: "O campo {{field}} deve ter exatamente {{expected}} caracteres.",
  stringPattern: "O campo {{field}} está em um formato inválido.",
  stringEnum: "O valor do campo {{field}} não está entre as opções permitidas: {{expected}}.",
  number: "O campo {{field}} deve ser um número.",
  numberMin: "O campo {{field}} deve ser maior ou igual a {{expected}}.",
  numberMax: "O campo {{field}} deve ser menor ou igual a {{expected}}.",
  numberInteger: "O campo {{field}} deve ser um número inteiro.",
  numberPositive: "O campo {{field}} deve ser um número positivo.",
  boolean: "O campo {{field}} deve ser sim ou não.",
  date: "O campo {{field}} deve ser uma data válida.",
  dateMin: "O campo {{field}} deve ser uma data igual ou posterior a {{expected}}.",
  dateMax: "O campo {{field}} deve ser uma data igual ou anterior a {{expected}}.",
  email: "O campo {{field}} deve ser um e-mail válido.",
  emailEmpty: "Informe um e-mail no campo {{field}}.",
  emailMin: "O e-mail do campo {{field}} deve ter pelo menos {{expected}} caracteres.",
  emailMax: "O e-mail do campo {{field}} deve ter no máximo {{expected}} caracteres.",
  enumValue: "O valor {{actual}} não é permitido no campo {{field}}. Valores aceitos: {{expected}}.",
  equalValue: "O campo {{field}} deve ser igual a {{expected}}.",
  equalField: "O campo {{field}} deve ser igual ao campo {{expected}}.",
  array: "O campo {{field}} deve ser uma lista.",
  arrayEmpty: "A lista {{field}} não pode ficar vazia.",
  arrayMin: "A lista {{field}} deve ter pelo menos {{expected}} itens.",
  arrayMax: "A lista {{field}} deve ter no máximo {{expected}} itens.",
  arrayLength: "A lista {{field}} deve ter exatamente {{expected}} itens.",
  arrayUnique: "A lista {{field}} tem valores repetidos: {{actual}}.",
  object: "O campo {{field}} deve conter um conjunto de dados válido.",
  objectStrict: "O campo {{field}} contém informações não permitidas: {{actual}}.",
  uuid: "O campo {{field}} deve conter um identificador válido.",
  url: "O campo {{field}} deve conter um endereço (URL) válido.",
  forbidden: "O campo {{field}} não é permitido.",
  any: "O campo {{field}} é inválido.",
  password:
    "O campo {{field}} deve ter pelo menos 8 caracteres, com letra maiúscula, letra minúscula e número, usando apenas letras e números.",
  document: "O campo {{field}} deve conter um CPF ou CNPJ válido.",
  phone: "O campo {{field}} deve conter um número de telefone válido, com código do país e DDD.",
};

export const ui: UiTexts = {
  genericErrorTitle: "Não identificado",
  genericErrorDetail: "Ocorreu um erro não identificado. Tente novamente e, se o problema continuar, fale com o suporte.",
  successTitle: "Tudo certo...",
  resetMailSubject: "Redefinição de senha",
  resetMailText:
    "Olá, {{name}}!\n\n" +
    "Recebemos uma solicitação para redefinir a sua senha. Para criar uma nova senha, acesse o link abaixo:\n\n" +
    "{{link}}\n\n" +
    "Este link é válido por 5 minutos. Se você não fez essa solicitação, ignore este e-mail: sua senha continuará a mesma.",
  resetMailHtml:
    "<p>Olá, {{name}}!</p>" +
    "<p>Recebemos uma solicitação para redefinir a sua senha. Clique no link abaixo para criar uma nova senha:</p>" +
    '<p><a href="{{link}}">Redefinir minha senha</a></p>' +
    "<p>Este link é válido por <strong>5 minutos</strong>. Se você não fez essa solicitação, ignore este e-mail: sua senha continuará a mesma.</p>" +
    "<p>Se o link não abrir, copie e cole este endereço no navegador:<br>{{link}}</p>",
  contactLimitBanner:
    "Você atingiu o limite de contatos do seu plano ({{current}} de {{max}}). Faça upgrade do plano para cadastrar mais contatos.",
  licenceNotice: "Este recurso está disponível a partir da licença {{requiredTier}}. Faça upgrade do seu plano para usá-lo.",
};
