/**
 * Español (neutro latinoamericano).
 * Textos para el usuario final (agentes y administradores). Los marcadores `{{nombre}}` se
 * completan con los datos del error; usa los mismos que en pt-BR.
 */
import type { ErrorCode } from "../codes";
import type { ErrorText, UiTexts, ValidationRule } from "./types";

const es: Record<ErrorCode, ErrorText> = {
  // --- genéricos / gateway ---
  ERR_INTERNAL: {
    title: "Error interno",
    detail: "Ocurrió un error inesperado en el servidor. Vuelve a intentarlo en unos instantes y, si el problema continúa, contacta a soporte.",
  },
  ERR_NOT_FOUND: {
    title: "No encontrado",
    detail: "El registro solicitado no existe o fue eliminado.",
  },
  ERR_ROUTE_NOT_FOUND: {
    title: "Dirección inexistente",
    detail: "El recurso solicitado no existe. Actualiza la página y vuelve a intentarlo.",
  },
  ERR_VALIDATION: {
    title: "Datos no válidos",
    detail: "El campo {{field}} no está completado correctamente. Corrígelo y vuelve a intentarlo.",
  },
  ERR_INVALID_JSON: {
    title: "Solicitud no válida",
    detail: "No se pudieron leer los datos enviados. Actualiza la página y vuelve a intentarlo.",
  },
  ERR_PAYLOAD_TOO_LARGE: {
    title: "Envío demasiado grande",
    detail: "El contenido enviado supera el límite de {{maxSize}}. Reduce su tamaño y vuelve a intentarlo.",
  },
  ERR_UNSUPPORTED_MEDIA_TYPE: {
    title: "Formato no compatible",
    detail: "Este tipo de archivo o contenido no se acepta.",
  },
  ERR_REQUEST_TIMEOUT: {
    title: "Tiempo de espera agotado",
    detail: "El servidor tardó demasiado en responder. Vuelve a intentarlo.",
  },
  ERR_RATE_LIMITED: {
    title: "Demasiados intentos",
    detail: "Hiciste demasiadas solicitudes en poco tiempo. Espera {{retryAfter}} segundos y vuelve a intentarlo.",
  },
  ERR_SERVICE_UNAVAILABLE: {
    title: "Servicio no disponible",
    detail: "El sistema no está disponible temporalmente. Vuelve a intentarlo en unos minutos.",
  },
  ERR_ORIGIN_NOT_ALLOWED: {
    title: "Acceso bloqueado",
    detail: "Esta dirección no tiene permiso para acceder al sistema. Contacta al administrador.",
  },
  ERR_CONFLICT: {
    title: "Conflicto de datos",
    detail: "El registro ya existe o fue modificado por otra persona. Actualiza la página y vuelve a intentarlo.",
  },

  // --- sesión e inicio de sesión ---
  ERR_SESSION_EXPIRED: {
    title: "Sesión expirada",
    detail: "Tu sesión expiró. Inicia sesión nuevamente.",
  },
  ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE: {
    title: "Sesión cerrada",
    detail: "Tu sesión se cerró porque tu cuenta se abrió en otro dispositivo o navegador. Inicia sesión nuevamente.",
  },
  ERR_SESSION_REQUIRED: {
    title: "Inicio de sesión requerido",
    detail: "Inicia sesión para continuar.",
  },
  ERR_TOKEN_INVALID: {
    title: "Acceso no válido",
    detail: "No pudimos validar tu acceso. Inicia sesión nuevamente.",
  },
  ERR_TOKEN_EXPIRED: {
    title: "Acceso vencido",
    detail: "Tu acceso venció. Inicia sesión nuevamente para continuar.",
  },
  ERR_INVALID_CREDENTIALS: {
    title: "Datos de acceso incorrectos",
    detail: "El correo, el teléfono o la contraseña son incorrectos. Revísalos y vuelve a intentarlo.",
  },
  ERR_USER_NOT_FOUND: {
    title: "Usuario no encontrado",
    detail: "No encontramos ningún usuario con esos datos.",
  },
  ERR_USER_INACTIVE: {
    title: "Usuario inactivo",
    detail: "Tu cuenta está desactivada. Contacta al administrador de tu empresa.",
  },
  ERR_USER_DELETED: {
    title: "Usuario eliminado",
    detail: "Esta cuenta fue eliminada y ya no se puede usar. Contacta al administrador de tu empresa.",
  },
  ERR_LOGIN_OUTSIDE_HOURS: {
    title: "Fuera del horario de acceso",
    detail: "Tu usuario solo puede acceder al sistema en los horarios registrados. Vuelve a intentarlo dentro de tu horario.",
  },
  ERR_PASSKEY_REQUIRED: {
    title: "Usa tu llave de acceso",
    detail: "Este usuario tiene una llave de acceso (passkey) registrada. Ingresa con el botón de llave de acceso.",
  },
  ERR_EMAIL_OR_PHONE_REQUIRED: {
    title: "Indica correo o teléfono",
    detail: "Ingresa tu correo electrónico o número de teléfono para continuar.",
  },
  ERR_NO_PERMISSION: {
    title: "Sin permiso",
    detail: "No tienes permiso para realizar esta acción.",
  },
  ERR_USER_CREATION_DISABLED: {
    title: "Registro de usuarios desactivado",
    detail: "La creación de nuevos usuarios está desactivada. Contacta al administrador.",
  },
  ERR_ADMIN_CREATION_DISABLED: {
    title: "Registro de administradores desactivado",
    detail: "No está permitido crear usuarios con perfil de administrador.",
  },
  ERR_FREE_PLAN_USER_LIMIT: {
    title: "Límite de usuarios del plan gratuito",
    detail: "El plan gratuito permite hasta {{max}} usuarios y ya tienes {{current}}. Mejora tu plan para agregar más.",
  },
  ERR_CANNOT_DEACTIVATE_ADMIN: {
    title: "Acción no permitida",
    detail: "Los usuarios administradores no se pueden desactivar.",
  },
  ERR_PHONE_ALREADY_REGISTERED: {
    title: "Teléfono ya registrado",
    detail: "Ya existe un usuario con este número de teléfono.",
  },
  ERR_EMAIL_ALREADY_REGISTERED: {
    title: "Correo ya registrado",
    detail: "Ya existe un usuario con este correo electrónico.",
  },
  ERR_USER_LIMIT_EXCEEDED: {
    title: "Límite de usuarios alcanzado",
    detail: "Tu empresa ya usa {{current}} de {{max}} usuarios permitidos. Mejora tu plan para agregar más.",
  },
  ERR_CONTACT_FINANCE: {
    title: "Contacta al área financiera",
    detail: "Hay un pendiente en tu cuenta. Comunícate con el área financiera para regularizar el acceso.",
  },
  ERR_CANNOT_DELETE_SELF: {
    title: "Eliminación no permitida",
    detail: "No puedes eliminar tu propia cuenta.",
  },
  ERR_NEW_USER_REQUIRED: {
    title: "Elige un usuario",
    detail: "Para eliminar este usuario, elige quién recibirá sus tickets.",
  },
  ERR_PASSWORD_WEAK: {
    title: "Contraseña débil",
    detail: "La contraseña debe tener al menos 8 caracteres, con una mayúscula, una minúscula y un número, usando solo letras y números.",
  },
  ERR_PASSWORD_MISMATCH: {
    title: "Las contraseñas no coinciden",
    detail: "La confirmación debe ser igual a la contraseña ingresada.",
  },
  ERR_RESET_TOKEN_EXPIRED: {
    title: "Enlace vencido",
    detail: "El enlace para restablecer la contraseña es válido por 5 minutos y ya venció. Solicita un nuevo enlace.",
  },
  ERR_RESET_TOKEN_INVALID: {
    title: "Enlace no válido",
    detail: "Este enlace para restablecer la contraseña no es válido o ya fue usado. Solicita un nuevo enlace.",
  },
  ERR_CONFIG_UPDATE: {
    title: "Error al guardar la configuración",
    detail: "No se pudo actualizar la configuración. Revisa los datos y vuelve a intentarlo.",
  },
  ERR_MAIL_NOT_CONFIGURED: {
    title: "Correo no configurado",
    detail: "El envío de correos no está configurado. Contacta al administrador.",
  },
  ERR_MAIL_SEND_FAILED: {
    title: "Error al enviar el correo",
    detail: "No se pudo enviar el correo. Vuelve a intentarlo más tarde.",
  },

  // --- contactos ---
  ERR_CONTACT_NOT_FOUND: {
    title: "Contacto no encontrado",
    detail: "El contacto no existe o fue eliminado.",
  },
  ERR_CONTACT_DUPLICATED: {
    title: "Contacto duplicado",
    detail: "Ya existe un contacto con este número.",
  },
  ERR_CONTACT_HAS_TICKETS: {
    title: "Contacto con tickets",
    detail: "Este contacto tiene tickets vinculados y no se puede eliminar.",
  },
  ERR_CONTACT_LIMIT: {
    title: "Límite de contactos alcanzado",
    detail: "Ya tienes {{current}} de los {{max}} contactos que permite tu plan. Mejora tu plan para agregar más.",
  },
  ERR_CONTACT_NUMBER_INVALID: {
    title: "Número no válido",
    detail: "El número no es válido o no tiene WhatsApp. Ingresa el código de país, el código de área y el número, por ejemplo 5511912345678.",
  },
  ERR_CONTACT_OTHER_OPEN_TICKET: {
    title: "Ticket abierto existente",
    detail: "Este contacto ya tiene otro ticket abierto. Puedes abrir el ticket existente.",
  },
  ERR_CONTACT_ALREADY_EXISTS: {
    title: "El contacto ya existe",
    detail: "Ya hay un contacto registrado con esos datos.",
  },

  // --- tickets, mensajes, WhatsApp ---
  ERR_TICKET_NOT_FOUND: {
    title: "Ticket no encontrado",
    detail: "El ticket no existe o fue eliminado.",
  },
  ERR_NO_STATUS_SELECTED: {
    title: "Ningún estado seleccionado",
    detail: "Selecciona al menos un estado para continuar.",
  },
  ERR_MESSAGE_TOO_OLD_TO_DELETE: {
    title: "No se puede borrar",
    detail: "Los mensajes de WhatsApp solo se pueden borrar hasta 5 minutos después del envío.",
  },
  ERR_MESSAGE_NOT_SENT: {
    title: "Mensaje no enviado",
    detail: "No se pudo enviar ni reenviar el mensaje. Revisa la conexión y vuelve a intentarlo.",
  },
  ERR_FORWARD_LIMIT: {
    title: "Límite de reenvío",
    detail: "Puedes reenviar como máximo 10 mensajes a la vez.",
  },
  ERR_SESSION_NOT_INITIALIZED: {
    title: "Conexión no iniciada",
    detail: "La sesión de WhatsApp aún no se inició. Escanea el código QR o espera a que se conecte.",
  },
  ERR_WHATSAPP_ALREADY_LINKED: {
    title: "WhatsApp ya vinculado",
    detail: "Esta conexión ya está vinculada a un teléfono. Para vincular otro número, usa Restablecer y escanea un nuevo código QR o pide un nuevo código.",
  },
  ERR_NO_DEFAULT_CONNECTION: {
    title: "Sin conexión predeterminada",
    detail: "No hay ninguna conexión definida como predeterminada. Define una en la pantalla de conexiones.",
  },
  ERR_MEDIA_DOWNLOAD_FAILED: {
    title: "Error al descargar el archivo",
    detail: "No se pudo descargar el archivo multimedia. Vuelve a intentarlo.",
  },
  ERR_TICKET_ALREADY_ASSIGNED: {
    title: "Transferencia no realizada",
    detail: "Este ticket ya pertenece al usuario o a la cola seleccionada.",
  },

  // --- respuestas automáticas y flujos ---
  ERR_AUTO_REPLY_NOT_FOUND: {
    title: "Respuesta automática no encontrada",
    detail: "No se encontró la respuesta automática o el paso.",
  },
  ERR_AUTO_REPLY_IN_USE: {
    title: "Respuesta automática en uso",
    detail: "Esta respuesta automática está vinculada a un ticket y no se puede eliminar.",
  },
  ERR_FLOW_NOT_FOUND: {
    title: "Flujo no encontrado",
    detail: "No se encontró el flujo o el paso.",
  },
  ERR_FLOW_IN_USE: {
    title: "Flujo en uso",
    detail: "Este flujo se usa en tickets o servicios y no se puede eliminar.",
  },
  ERR_AUTO_REPLY_SINGLE_INITIAL_STEP: {
    title: "Paso inicial duplicado",
    detail: "Cada respuesta automática puede tener solo un paso inicial.",
  },
  ERR_CHATBOT_NOT_OWNER: {
    title: "Atención fuera del chatbot",
    detail: "Esta atención ya no está con este chatbot (un agente la tomó u otro bot la recibió).",
  },

  // --- campañas ---
  ERR_CAMPAIGN_NOT_FOUND: {
    title: "Campaña no encontrada",
    detail: "La campaña no existe o no tienes acceso a ella.",
  },
  ERR_CAMPAIGN_CONTACTS_MISSING: {
    title: "Campaña sin contactos",
    detail: "Agrega contactos a la campaña antes de continuar.",
  },
  ERR_CAMPAIGN_NOT_EDITABLE: {
    title: "Campaña no editable",
    detail: "Solo se pueden editar campañas pendientes o canceladas.",
  },
  ERR_CAMPAIGN_DATE_INVALID: {
    title: "Fecha de campaña no válida",
    detail: "Ingresa una fecha de inicio válida y posterior al momento actual.",
  },
  ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE: {
    title: "Contactos obligatorios",
    detail: "Vincula contactos a la campaña para poder programarla.",
  },
  ERR_CAMPAIGN_PAST_DATE: {
    title: "Fecha en el pasado",
    detail: "No es posible programar una campaña con una fecha pasada.",
  },

  // --- SMS ---
  ERR_SMS_INVALID_TOKEN: {
    title: "Token de SMS no válido",
    detail: "El token del servicio de SMS no es válido. Comunícate con tu revendedor.",
  },
  ERR_SMS_INSUFFICIENT_CREDITS: {
    title: "Créditos insuficientes",
    detail: "No tienes suficientes créditos de SMS para todos los destinatarios. Compra más créditos para continuar.",
  },

  // --- otros ---
  ERR_QUICK_MESSAGE_NOT_FOUND: {
    title: "Respuesta rápida no encontrada",
    detail: "La respuesta rápida no existe o fue eliminada.",
  },
  ERR_QUICK_MESSAGE_EXISTS: {
    title: "La respuesta rápida ya existe",
    detail: "Ya existe una respuesta rápida con este atajo.",
  },
  ERR_QUEUE_NOT_FOUND: {
    title: "Cola no encontrada",
    detail: "La cola no existe o fue eliminada.",
  },
  ERR_QUEUE_HAS_TICKETS: {
    title: "Cola con tickets",
    detail: "Esta cola tiene tickets vinculados y no se puede eliminar.",
  },
  ERR_TAG_NOT_FOUND: {
    title: "Etiqueta no encontrada",
    detail: "La etiqueta no existe o fue eliminada.",
  },
  ERR_TAG_HAS_CONTACTS: {
    title: "Etiqueta en uso",
    detail: "Esta etiqueta está vinculada a contactos y no se puede eliminar.",
  },
  ERR_SETTING_NOT_FOUND: {
    title: "Configuración no encontrada",
    detail: "La configuración solicitada no existe.",
  },
  ERR_TENANT_NOT_FOUND: {
    title: "Empresa no encontrada",
    detail: "La empresa no existe o fue eliminada.",
  },
  ERR_TENANT_INACTIVE: {
    title: "Empresa inactiva",
    detail: "El acceso de esta empresa está desactivado. Contacta a soporte o a tu revendedor.",
  },
  ERR_API_CONFIG_NOT_FOUND: {
    title: "Configuración de API no encontrada",
    detail: "La configuración de API no existe o fue eliminada.",
  },
  ERR_SCHEDULE_NOT_FOUND: {
    title: "Programación no encontrada",
    detail: "El elemento programado no existe o fue eliminado.",
  },
  ERR_SCHEDULE_CONFLICT: {
    title: "Conflicto de horario",
    detail: "Ya hay algo programado en este horario. Elige otro horario.",
  },
  ERR_SCHEDULE_INVALID_DATE: {
    title: "Fecha no válida",
    detail: "Ingresa una fecha válida que no esté en el pasado.",
  },
  ERR_SCHEDULE_INVALID_HOUR: {
    title: "Hora no válida",
    detail: "Ingresa una hora válida que no esté en el pasado.",
  },
  ERR_REQUIRED_BODY: {
    title: "Mensaje obligatorio",
    detail: "Escribe el mensaje antes de continuar.",
  },
  ERR_REQUIRED_CONTACT: {
    title: "Contacto obligatorio",
    detail: "Selecciona un contacto para continuar.",
  },
  ERR_REQUIRED_SEND_AT: {
    title: "Fecha de envío obligatoria",
    detail: "Indica la fecha y la hora de envío.",
  },
  ERR_REQUIRED_CONNECTION: {
    title: "Conexión obligatoria",
    detail: "Selecciona una conexión para continuar.",
  },
  ERR_REQUIRED_USER: {
    title: "Usuario obligatorio",
    detail: "Selecciona un usuario para continuar.",
  },
  ERR_INVALID_INTERVAL: {
    title: "Intervalo no válido",
    detail: "Los valores del intervalo no son válidos. Revisa el mínimo y el máximo y vuelve a intentarlo.",
  },
  ERR_USER_OUTSIDE_AVAILABILITY: {
    title: "Fuera de la disponibilidad",
    detail: "El horario elegido está fuera de la disponibilidad del usuario.",
  },
  ERR_USER_NO_AVAILABILITY_DAY: {
    title: "Usuario no disponible ese día",
    detail: "El usuario no tiene horarios disponibles en esta fecha.",
  },
  ERR_NO_FILE_UPLOADED: {
    title: "Ningún archivo enviado",
    detail: "Selecciona un archivo para subir.",
  },
  ERR_SERVICE_NOT_FOUND_FOR_USER: {
    title: "Servicio no encontrado",
    detail: "Este servicio no está disponible para el usuario seleccionado.",
  },
  ERR_INVALID_IMAGE_FORMAT: {
    title: "Formato de imagen no válido",
    detail: "Sube una imagen en un formato compatible, como JPG o PNG.",
  },
  ERR_BUSINESS_HOURS_NOT_FOUND: {
    title: "Horario no encontrado",
    detail: "El horario de atención no existe o fue eliminado.",
  },
  ERR_BUSINESS_HOURS_TARGET_REQUIRED: {
    title: "Elige a quién se aplica",
    detail: "Los horarios por cola, usuario o WhatsApp necesitan al menos un destino elegido.",
  },
  ERR_BUSINESS_HOURS_INVALID_RANGE: {
    title: "Horario no válido",
    detail: "El inicio debe ser anterior al fin, y la mañana debe terminar antes de que empiece la tarde ({{day}}).",
  },
  ERR_BUSINESS_HOURS_CONFLICT: {
    title: "Horario ya definido",
    detail: "Ya existe un horario activo para este destino. Edítalo o desactívalo primero.",
  },
  ERR_HOLIDAY_NOT_FOUND: {
    title: "Feriado no encontrado",
    detail: "El feriado no existe o fue eliminado.",
  },
  ERR_URL_NOT_ALLOWED: {
    title: "Dirección no permitida",
    detail: "Esta dirección apunta a una red interna (localhost, red privada o link-local) y no se puede usar. Usa una dirección pública.",
  },

  // --- licencia y plan ---
  ERR_LICENSE_INVALID: {
    title: "Licencia no válida",
    detail: "La licencia ingresada no es válida. Revisa los datos o contacta a tu revendedor.",
  },
  ERR_LICENSE_EXPIRED: {
    title: "Licencia vencida",
    detail: "Tu licencia venció. Renuévala para seguir usando el sistema.",
  },
  ERR_LICENSE_BLOCKED: {
    title: "Licencia bloqueada",
    detail: "Tu licencia está bloqueada. Contacta a soporte o a tu revendedor.",
  },
  ERR_LICENSE_WRONG_DOMAIN: {
    title: "Dominio no autorizado",
    detail: "Esta licencia no es válida para este dominio.",
  },
  ERR_LICENSE_WRONG_CODE: {
    title: "Código de licencia incorrecto",
    detail: "El código de la licencia no coincide. Revísalo y vuelve a intentarlo.",
  },
  ERR_LICENSE_TIER_REQUIRED: {
    title: "Función no incluida en tu plan",
    detail: "Esta función requiere la licencia {{requiredTier}} o superior. Mejora tu plan para usarla.",
  },
  ERR_FREE_PLAN_VIOLATION: {
    title: "No disponible en el plan gratuito",
    detail: "Esta acción no está permitida en el plan gratuito. Mejora tu plan para continuar.",
  },
  ERR_FREE_PLAN_QUEUE_LIMIT: {
    title: "Límite de colas",
    detail: "El plan gratuito permite solo una cola activa. Mejora tu plan para usar más colas.",
  },
  ERR_FREE_PLAN_CHATFLOW_LIMIT: {
    title: "Límite de flujos",
    detail: "El plan gratuito permite solo un flujo de chatbot activo. Mejora tu plan para activar más.",
  },
  ERR_FREE_PLAN_CONNECTION_LIMIT: {
    title: "Límite de conexiones del plan gratuito",
    detail: "El plan gratuito permite solo una conexión. Mejora tu plan para agregar más.",
  },
  ERR_CONNECTION_LIMIT: {
    title: "Límite de conexiones alcanzado",
    detail: "Ya tienes {{current}} de {{max}} conexiones permitidas. Mejora tu plan para agregar más.",
  },
  ERR_RESELLER_CONNECTION_LIMIT: {
    title: "Límite del revendedor alcanzado",
    detail: "Se alcanzó el límite total de conexiones de tu revendedor. Comunícate con tu revendedor.",
  },

  // --- llave de acceso (passkey) ---
  ERR_PASSKEY_NOT_SUPPORTED: {
    title: "Llaves de acceso no compatibles",
    detail: "Tu navegador o dispositivo no es compatible con llaves de acceso. Usa otro navegador o ingresa con tu contraseña.",
  },
  ERR_PASSKEY_HTTPS_REQUIRED: {
    title: "Se requiere conexión segura",
    detail: "Las llaves de acceso solo funcionan en direcciones con HTTPS.",
  },
  ERR_PASSKEY_CHALLENGE_MISSING: {
    title: "Faltan datos de verificación",
    detail: "No se recibieron los datos de verificación de la llave de acceso. Vuelve a intentarlo.",
  },
  ERR_PASSKEY_NOT_RECOGNISED: {
    title: "Llave no reconocida",
    detail: "Esta llave de acceso no fue reconocida. Usa otra llave o ingresa con tu contraseña.",
  },
  ERR_PASSKEY_TIMEOUT: {
    title: "Verificación vencida",
    detail: "La verificación de la llave de acceso tardó demasiado. Vuelve a intentarlo.",
  },
  ERR_PASSKEY_CANCELLED: {
    title: "Verificación cancelada",
    detail: "Se canceló la verificación con la llave de acceso.",
  },
  ERR_PASSKEY_DENIED: {
    title: "Permiso denegado",
    detail: "No se autorizó el uso de la llave de acceso. Permítelo en el navegador o en el dispositivo y vuelve a intentarlo.",
  },
  ERR_PASSKEY_ABORTED: {
    title: "Operación interrumpida",
    detail: "La operación con la llave de acceso se interrumpió. Vuelve a intentarlo.",
  },
  ERR_PASSKEY_INVALID_STATE: {
    title: "Llave ya registrada",
    detail: "Esta llave de acceso ya está registrada en este dispositivo o no se puede usar en este momento.",
  },
  ERR_PASSKEY_SECURITY: {
    title: "Error de seguridad",
    detail: "Una regla de seguridad del navegador bloqueó la llave de acceso. Verifica que estés en la dirección correcta del sistema.",
  },
  ERR_PASSKEY_USER_NOT_FOUND: {
    title: "Usuario de la llave no encontrado",
    detail: "No se encontró ningún usuario para esta llave de acceso.",
  },
  ERR_PASSKEY_NONE_FOUND: {
    title: "Ninguna llave registrada",
    detail: "Este usuario no tiene llaves de acceso registradas. Ingresa con tu contraseña y registra una.",
  },

  // --- voz ---
  ERR_VOICE_NUMBER_NOT_EXISTS: {
    title: "Número inexistente",
    detail: "El número al que llamas no existe o no tiene WhatsApp.",
  },
  ERR_VOICE_LINE_BUSY: {
    title: "Línea ocupada",
    detail: "Todas las líneas están ocupadas en este momento. Vuelve a intentarlo más tarde o mejora tu plan para tener más líneas.",
  },

  // --- varios ---
  ERR_AI_VOICES_LOAD: {
    title: "Error al cargar las voces",
    detail: "No se pudieron cargar las voces de IA. Revisa las credenciales del proveedor.",
  },
  ERR_CHAT_BUILDER_URL: {
    title: "Constructor de chatbot no disponible",
    detail: "No se pudo cargar la dirección del constructor de chatbot. Revisa la configuración o vuelve a intentarlo más tarde.",
  },
  ERR_CHANNEL_UNSUPPORTED: {
    title: "No compatible con el canal",
    detail: "Este canal no admite este tipo de mensaje o acción.",
  },
  ERR_GIF_SEARCH_NOT_CONFIGURED: {
    title: "Búsqueda de GIF no configurada",
    detail: "La búsqueda de GIF necesita una clave de API de GIPHY en la configuración global de la plataforma. Pida al administrador de la plataforma que la registre.",
  },
  ERR_GIF_SEARCH_FAILED: {
    title: "Búsqueda de GIF no disponible",
    detail: "El servicio de GIF no respondió como se esperaba. Inténtelo de nuevo en unos instantes.",
  },
  ERR_CONNECTION_NOT_FOUND: {
    title: "Conexión no encontrada",
    detail: "La conexión no existe o fue eliminada.",
  },
  ERR_CONNECTION_NAME_IN_USE: {
    title: "Nombre de conexión en uso",
    detail: "Ya existe una conexión con ese nombre. Elige otro nombre.",
  },
  ERR_CONNECTION_DELETE_CONFIRMATION: {
    title: "Confirmación necesaria",
    detail: "Para eliminar la conexión, escribe ELIMINAR o el nombre de la conexión.",
  },
  ERR_CONNECTION_TRANSFER_SAME: {
    title: "Conexiones iguales",
    detail: "Elige conexiones de origen y destino diferentes.",
  },
  ERR_PLUGIN_NOT_FOUND: {
    title: "Módulo no encontrado",
    detail: "El módulo solicitado no está instalado.",
  },
  ERR_PLUGIN_DISABLED: {
    title: "Módulo desactivado",
    detail: "Este módulo no está activo para tu empresa. Contacta al administrador.",
  },
  ERR_PLUGIN_UNAVAILABLE: {
    title: "Módulo no disponible",
    detail: "El módulo no está en ejecución en este momento. Inténtalo de nuevo en unos instantes.",
  },
  ERR_PLUGIN_NOT_ALLOWED: {
    title: "Módulo no habilitado",
    detail: "Este módulo no fue habilitado para tu empresa. Comunícate con tu revendedor.",
  },
  ERR_PLUGIN_VERSION_UNAVAILABLE: {
    title: "Versión del módulo no disponible",
    detail: "La versión del módulo que usa esta conexión no está instalada. Contacta a soporte.",
  },
  ERR_CONNECTION_INACTIVE: {
    title: "Conexión inactiva",
    detail: "El canal de esta conexión está desactivado para tu empresa: no se envía ni se recibe nada por ella hasta que se reactive.",
  },
  ERR_ARCHIVE_INVALID: {
    title: "Paquete de módulo inválido",
    detail: "El archivo no es un paquete de módulo (un tar comprimido con gzip generado por plugin-sdk pack) o está dañado.",
  },
  ERR_ARCHIVE_CHECKSUM_MISMATCH: {
    title: "El checksum no coincide",
    detail: "El checksum SHA-256 del paquete no es el que se envió con él. El archivo cambió en el camino: vuelve a generarlo y enviarlo.",
  },
  ERR_ARCHIVE_PATH_UNSAFE: {
    title: "Ruta insegura en el paquete",
    detail: "El paquete contiene una entrada con ruta absoluta, un paso '..', un enlace o un archivo especial. No se guardó nada.",
  },
  ERR_ARCHIVE_TOO_LARGE: {
    title: "Paquete demasiado grande",
    detail: "El paquete del módulo es más grande de lo que acepta el marketplace.",
  },
  ERR_ARCHIVE_MANIFEST_INVALID: {
    title: "Manifiesto del módulo inválido",
    detail: "Falta el package.json del paquete o su manifiesto es inválido, o faltan archivos que el manifiesto nombra.",
  },
  ERR_MARKETPLACE_TOKEN_INVALID: {
    title: "Token de publicador inválido",
    detail: "El token de publicador falta, es incorrecto o fue revocado. Pide uno nuevo al administrador del marketplace.",
  },
  ERR_MARKETPLACE_PUBLISHER_NOT_FOUND: {
    title: "Publicador no encontrado",
    detail: "Este publicador no existe.",
  },
  ERR_MARKETPLACE_PUBLISHER_EXISTS: {
    title: "El publicador ya existe",
    detail: "Ya existe un publicador con este correo electrónico.",
  },
  ERR_MARKETPLACE_PLUGIN_OWNED: {
    title: "El módulo pertenece a otro publicador",
    detail: "Este id de módulo lo publicó otro publicador. Elige otro id.",
  },
  ERR_MARKETPLACE_PLUGIN_NOT_FOUND: {
    title: "Módulo fuera del catálogo",
    detail: "El marketplace no tiene ningún módulo con este id.",
  },
  ERR_MARKETPLACE_VERSION_NOT_FOUND: {
    title: "Versión no encontrada",
    detail: "El marketplace no tiene esta versión del módulo.",
  },
  ERR_MARKETPLACE_VERSION_EXISTS: {
    title: "Versión ya publicada",
    detail: "Esta versión del módulo ya está publicada. Aumenta el número de versión y vuelve a publicar.",
  },
  ERR_PLUGIN_INSTALLS_DISABLED: {
    title: "Instalación de módulos desactivada",
    detail: "Esta plataforma no ejecuta módulos instalados desde el marketplace (PLUGIN_INSTALLS).",
  },
  ERR_PLUGIN_FORBIDDEN: {
    title: "No permitido a los módulos",
    detail: "Un módulo solo puede llamar, en su propio nombre, a las acciones del núcleo destinadas a los módulos: se rechazó esta llamada.",
  },
  ERR_PLUGIN_NOT_INSTALLED: {
    title: "Módulo no instalado",
    detail: "Este módulo, o esta versión, no está instalado en la plataforma.",
  },
  ERR_PLUGIN_ALREADY_INSTALLED: {
    title: "Versión ya en ejecución",
    detail: "Esta versión del módulo ya está instalada y en ejecución.",
  },
  ERR_PLUGIN_BUNDLED: {
    title: "Módulo incluido en la plataforma",
    detail: "Un módulo incluido en la plataforma tiene este id: no se puede instalar, reemplazar ni quitar desde el marketplace.",
  },
  ERR_PLUGIN_IN_USE: {
    title: "Módulo en uso",
    detail: "Todavía hay conexiones que usan este módulo. Elimínalas o muévelas antes de desinstalarlo.",
  },
  ERR_PLUGIN_ROLLBACK_UNAVAILABLE: {
    title: "No hay versión a la que volver",
    detail: "No hay una versión anterior instalada de este módulo.",
  },
  ERR_PLUGIN_INSTALL_FAILED: {
    title: "El módulo no se inició",
    detail: "El módulo se descomprimió, pero su servicio no se inició. Se mantuvo el estado anterior.",
  },
  ERR_MEDIA_TOO_LARGE: {
    title: "Archivo demasiado grande",
    detail: "Cada archivo puede tener como máximo 10 MB y el envío completo como máximo 30 MB.",
  },
  ERR_IMPORT_NOT_FOUND: {
    title: "Importación no encontrada",
    detail: "Esta importación no existe o ya caducó.",
  },
  ERR_QUICK_MESSAGE_AMBIGUOUS: {
    title: "Atajo ambiguo",
    detail: "Más de un mensaje rápido empieza con este atajo. Escribe un atajo más exacto.",
  },
  ERR_SEARCH_TOO_SHORT: {
    title: "Búsqueda demasiado corta",
    detail: "Escribe al menos 2 letras para buscar.",
  },
  ERR_TICKET_REOPEN_BLOCKED: {
    title: "Reapertura bloqueada",
    detail: "Este ticket se cerró hace poco y todavía no se puede reabrir.",
  },
  ERR_TRANSFER_TARGET_REQUIRED: {
    title: "Destino obligatorio",
    detail: "Elige un usuario o una cola para transferir el ticket.",
  },
  ERR_MESSAGE_NOT_FOUND: {
    title: "Mensaje no encontrado",
    detail: "El mensaje no existe o fue eliminado.",
  },
  ERR_MESSAGE_EDIT_NOT_ALLOWED: {
    title: "Edición no permitida",
    detail: "Solo puedes editar mensajes de texto enviados por ti.",
  },
  ERR_TAG_EXISTS: {
    title: "La etiqueta ya existe",
    detail: "Ya existe una etiqueta con ese nombre.",
  },
  ERR_GROUP_PARTICIPANT_LIMIT: {
    title: "Demasiados participantes",
    detail: "Un grupo puede tener como máximo 1023 participantes.",
  },
  ERR_GROUP_PICTURE_TOO_LARGE: {
    title: "Foto del grupo demasiado grande",
    detail: "La foto del grupo puede tener como máximo 5 MB.",
  },
  ERR_WHATSAPP_GROUP_REFUSED: {
    title: "WhatsApp rechazó la operación en el grupo",
    detail: "WhatsApp no aceptó la solicitud para este grupo. Verifique que el número conectado sea administrador del grupo e intente de nuevo.",
  },
};

export default es;

export const validation: Record<ValidationRule, string> = {
  required: "El campo {{field}} es obligatorio.",
  string: "El campo {{field}} debe ser un texto.",
  stringEmpty: "El campo {{field}} no puede estar vacío.",
  stringMin: "El campo {{field}} debe tener al menos {{expected}} caracteres.",
  stringMax: "El campo {{field}} debe tener como máximo {{expected}} caracteres.",
  stringLength: "El campo {{field}} debe tener exactamente {{expected}} caracteres.",
  stringPattern: "El campo {{field}} tiene un formato no válido.",
  stringEnum: "El valor del campo {{field}} no está entre las opciones permitidas: {{expected}}.",
  number: "El campo {{field}} debe ser un número.",
  numberMin: "El campo {{field}} debe ser mayor o igual que {{expected}}.",
  numberMax: "El campo {{field}} debe ser menor o igual que {{expected}}.",
  numberInteger: "El campo {{field}} debe ser un número entero.",
  numberPositive: "El campo {{field}} debe ser un número positivo.",
  boolean: "El campo {{field}} debe ser sí o no.",
  date: "El campo {{field}} debe ser una fecha válida.",
  dateMin: "El campo {{field}} debe ser una fecha igual o posterior a {{expected}}.",
  dateMax: "El campo {{field}} debe ser una fecha igual o anterior a {{expected}}.",
  email: "El campo {{field}} debe ser un correo electrónico válido.",
  emailEmpty: "Ingresa un correo electrónico en el campo {{field}}.",
  emailMin: "El correo del campo {{field}} debe tener al menos {{expected}} caracteres.",
  emailMax: "El correo del campo {{field}} debe tener como máximo {{expected}} caracteres.",
  enumValue: "El valor {{actual}} no está permitido en el campo {{field}}. Valores aceptados: {{expected}}.",
  equalValue: "El campo {{field}} debe ser igual a {{expected}}.",
  equalField: "El campo {{field}} debe coincidir con el campo {{expected}}.",
  array: "El campo {{field}} debe ser una lista.",
  arrayEmpty: "La lista {{field}} no puede estar vacía.",
  arrayMin: "La lista {{field}} debe tener al menos {{expected}} elementos.",
  arrayMax: "La lista {{field}} debe tener como máximo {{expected}} elementos.",
  arrayLength: "La lista {{field}} debe tener exactamente {{expected}} elementos.",
  arrayUnique: "La lista {{field}} tiene valores repetidos: {{actual}}.",
  object: "El campo {{field}} debe contener un conjunto de datos válido.",
  objectStrict: "El campo {{field}} contiene información no permitida: {{actual}}.",
  uuid: "El campo {{field}} debe contener un identificador válido.",
  url: "El campo {{field}} debe contener una dirección web (URL) válida.",
  forbidden: "El campo {{field}} no está permitido.",
  any: "El campo {{field}} no es válido.",
  password:
    "El campo {{field}} debe tener al menos 8 caracteres, con una mayúscula, una minúscula y un número, usando solo letras y números.",
  document: "El campo {{field}} debe contener un CPF o CNPJ válido.",
  phone: "El campo {{field}} debe contener un número de teléfono válido, con código de país y de área.",
};

export const ui: UiTexts = {
  genericErrorTitle: "Error no identificado",
  genericErrorDetail: "Ocurrió un error no identificado. Vuelve a intentarlo y, si el problema continúa, contacta a soporte.",
  successTitle: "Todo listo...",
  resetMailSubject: "Restablecimiento de contraseña",
  resetMailText:
    "¡Hola, {{name}}!\n\n" +
    "Recibimos una solicitud para restablecer tu contraseña. Para crear una nueva contraseña, abre el siguiente enlace:\n\n" +
    "{{link}}\n\n" +
    "Este enlace es válido por 5 minutos. Si no hiciste esta solicitud, ignora este correo: tu contraseña seguirá siendo la misma.",
  resetMailHtml:
    "<p>¡Hola, {{name}}!</p>" +
    "<p>Recibimos una solicitud para restablecer tu contraseña. Haz clic en el siguiente enlace para crear una nueva contraseña:</p>" +
    '<p><a href="{{link}}">Restablecer mi contraseña</a></p>' +
    "<p>Este enlace es válido por <strong>5 minutos</strong>. Si no hiciste esta solicitud, ignora este correo: tu contraseña seguirá siendo la misma.</p>" +
    "<p>Si el enlace no se abre, copia y pega esta dirección en tu navegador:<br>{{link}}</p>",
  contactLimitBanner:
    "Alcanzaste el límite de contactos de tu plan ({{current}} de {{max}}). Mejora tu plan para agregar más contactos.",
  licenceNotice: "Esta función está disponible a partir de la licencia {{requiredTier}}. Mejora tu plan para usarla.",
};
