/**
 * English — fallback language.
 * End-user texts (agents and administrators). `{{name}}` placeholders are filled from the
 * error's data; keep the same placeholders as pt-BR.
 */
import type { ErrorCode } from "../codes";
import type { ErrorText, UiTexts, ValidationRule } from "./types";

const en: Record<ErrorCode, ErrorText> = {
  // --- generic / gateway ---
  ERR_INTERNAL: {
    title: "Internal error",
    detail: "Something went wrong on the server. Please try again shortly and contact support if the problem persists.",
  },
  ERR_NOT_FOUND: {
    title: "Not found",
    detail: "The requested record does not exist or has been removed.",
  },
  ERR_ROUTE_NOT_FOUND: {
    title: "Address not found",
    detail: "The requested resource does not exist. Refresh the page and try again.",
  },
  ERR_VALIDATION: {
    title: "Invalid data",
    detail: "The {{field}} field is not filled in correctly. Please fix it and try again.",
  },
  ERR_INVALID_JSON: {
    title: "Invalid request",
    detail: "The data sent could not be read. Refresh the page and try again.",
  },
  ERR_PAYLOAD_TOO_LARGE: {
    title: "Upload too large",
    detail: "What you sent exceeds the {{maxSize}} limit. Reduce its size and try again.",
  },
  ERR_UNSUPPORTED_MEDIA_TYPE: {
    title: "Unsupported format",
    detail: "This type of file or content is not accepted.",
  },
  ERR_REQUEST_TIMEOUT: {
    title: "Request timed out",
    detail: "The server took too long to respond. Please try again.",
  },
  ERR_RATE_LIMITED: {
    title: "Too many attempts",
    detail: "You made too many requests in a short time. Wait {{retryAfter}} seconds and try again.",
  },
  ERR_SERVICE_UNAVAILABLE: {
    title: "Service unavailable",
    detail: "The system is temporarily unavailable. Please try again in a few minutes.",
  },
  ERR_ORIGIN_NOT_ALLOWED: {
    title: "Access blocked",
    detail: "This address is not allowed to access the system. Contact your administrator.",
  },
  ERR_CONFLICT: {
    title: "Data conflict",
    detail: "The record already exists or was changed by someone else. Refresh the page and try again.",
  },

  // --- session and login ---
  ERR_SESSION_EXPIRED: {
    title: "Session expired",
    detail: "Your session has expired. Please log in again.",
  },
  ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE: {
    title: "Session ended",
    detail: "Your session was ended because your account was signed in on another device or browser. Please log in again.",
  },
  ERR_SESSION_REQUIRED: {
    title: "Login required",
    detail: "Please log in to continue.",
  },
  ERR_TOKEN_INVALID: {
    title: "Invalid access",
    detail: "We could not verify your access. Please log in again.",
  },
  ERR_TOKEN_EXPIRED: {
    title: "Access expired",
    detail: "Your access has expired. Please log in again to continue.",
  },
  ERR_INVALID_CREDENTIALS: {
    title: "Incorrect login details",
    detail: "The e-mail, phone number or password is incorrect. Check them and try again.",
  },
  ERR_USER_NOT_FOUND: {
    title: "User not found",
    detail: "We could not find a user with these details.",
  },
  ERR_USER_INACTIVE: {
    title: "Inactive user",
    detail: "Your account is deactivated. Contact your company's administrator.",
  },
  ERR_USER_DELETED: {
    title: "Deleted user",
    detail: "This account has been deleted and can no longer be used. Contact your company's administrator.",
  },
  ERR_LOGIN_OUTSIDE_HOURS: {
    title: "Outside access hours",
    detail: "Your user can only access the system during the registered hours. Please try again within your schedule.",
  },
  ERR_PASSKEY_REQUIRED: {
    title: "Use your passkey",
    detail: "This user has a registered passkey. Sign in with the passkey button.",
  },
  ERR_EMAIL_OR_PHONE_REQUIRED: {
    title: "E-mail or phone required",
    detail: "Enter your e-mail or phone number to continue.",
  },
  ERR_NO_PERMISSION: {
    title: "No permission",
    detail: "You do not have permission to perform this action.",
  },
  ERR_USER_CREATION_DISABLED: {
    title: "User creation disabled",
    detail: "Creating new users is disabled. Contact your administrator.",
  },
  ERR_ADMIN_CREATION_DISABLED: {
    title: "Admin creation disabled",
    detail: "Creating users with the administrator profile is not allowed.",
  },
  ERR_FREE_PLAN_USER_LIMIT: {
    title: "Free plan user limit",
    detail: "The free plan allows up to {{max}} users and you already have {{current}}. Upgrade your plan to add more.",
  },
  ERR_CANNOT_DEACTIVATE_ADMIN: {
    title: "Action not allowed",
    detail: "Administrator users cannot be deactivated.",
  },
  ERR_PHONE_ALREADY_REGISTERED: {
    title: "Phone already registered",
    detail: "A user with this phone number already exists.",
  },
  ERR_EMAIL_ALREADY_REGISTERED: {
    title: "E-mail already registered",
    detail: "A user with this e-mail already exists.",
  },
  ERR_USER_LIMIT_EXCEEDED: {
    title: "User limit reached",
    detail: "Your company already uses {{current}} of {{max}} allowed users. Upgrade your plan to add more.",
  },
  ERR_CONTACT_FINANCE: {
    title: "Contact the billing department",
    detail: "There is a pending issue on your account. Please contact the billing department to restore access.",
  },
  ERR_CANNOT_DELETE_SELF: {
    title: "Deletion not allowed",
    detail: "You cannot delete your own account.",
  },
  ERR_NEW_USER_REQUIRED: {
    title: "Choose a user",
    detail: "To delete this user, choose who will receive their tickets.",
  },
  ERR_PASSWORD_WEAK: {
    title: "Weak password",
    detail: "The password must be at least 8 characters long and include an upper-case letter, a lower-case letter and a number, using letters and numbers only.",
  },
  ERR_PASSWORD_MISMATCH: {
    title: "Passwords do not match",
    detail: "The confirmation must be the same as the password you entered.",
  },
  ERR_RESET_TOKEN_EXPIRED: {
    title: "Link expired",
    detail: "The password reset link is valid for 5 minutes and has expired. Request a new link.",
  },
  ERR_RESET_TOKEN_INVALID: {
    title: "Invalid link",
    detail: "This password reset link is invalid or has already been used. Request a new link.",
  },
  ERR_CONFIG_UPDATE: {
    title: "Could not save settings",
    detail: "The settings could not be updated. Check the data and try again.",
  },
  ERR_MAIL_NOT_CONFIGURED: {
    title: "E-mail not configured",
    detail: "Sending e-mails is not configured. Contact your administrator.",
  },
  ERR_MAIL_SEND_FAILED: {
    title: "E-mail not sent",
    detail: "The e-mail could not be sent. Please try again later.",
  },

  // --- contacts ---
  ERR_CONTACT_NOT_FOUND: {
    title: "Contact not found",
    detail: "The contact does not exist or has been deleted.",
  },
  ERR_CONTACT_DUPLICATED: {
    title: "Duplicate contact",
    detail: "A contact with this number already exists.",
  },
  ERR_CONTACT_HAS_TICKETS: {
    title: "Contact has tickets",
    detail: "This contact has linked tickets and cannot be deleted.",
  },
  ERR_CONTACT_LIMIT: {
    title: "Contact limit reached",
    detail: "You already have {{current}} of the {{max}} contacts your plan allows. Upgrade to add more.",
  },
  ERR_CONTACT_NUMBER_INVALID: {
    title: "Invalid number",
    detail: "The number is invalid or not on WhatsApp. Enter the country code, area code and number, for example 5511912345678.",
  },
  ERR_CONTACT_OTHER_OPEN_TICKET: {
    title: "Open ticket exists",
    detail: "This contact already has another open ticket. You can open the existing ticket instead.",
  },
  ERR_CONTACT_ALREADY_EXISTS: {
    title: "Contact already exists",
    detail: "A contact with these details is already registered.",
  },

  // --- tickets, messages, WhatsApp ---
  ERR_TICKET_NOT_FOUND: {
    title: "Ticket not found",
    detail: "The ticket does not exist or has been deleted.",
  },
  ERR_NO_STATUS_SELECTED: {
    title: "No status selected",
    detail: "Select at least one status to continue.",
  },
  ERR_MESSAGE_TOO_OLD_TO_DELETE: {
    title: "Cannot delete message",
    detail: "WhatsApp messages can only be deleted up to 5 minutes after they are sent.",
  },
  ERR_MESSAGE_NOT_SENT: {
    title: "Message not sent",
    detail: "The message could not be sent or forwarded. Check the connection and try again.",
  },
  ERR_FORWARD_LIMIT: {
    title: "Forwarding limit",
    detail: "You can forward at most 10 messages at a time.",
  },
  ERR_SESSION_NOT_INITIALIZED: {
    title: "Connection not started",
    detail: "The WhatsApp session has not started yet. Scan the QR code or wait for the connection.",
  },
  ERR_WHATSAPP_ALREADY_LINKED: {
    title: "WhatsApp already linked",
    detail: "This connection is already linked to a phone. To link another number, use Reset, then scan a new QR code or ask for a new code.",
  },
  ERR_NO_DEFAULT_CONNECTION: {
    title: "No default connection",
    detail: "No connection is set as the default. Set one on the connections screen.",
  },
  ERR_MEDIA_DOWNLOAD_FAILED: {
    title: "Media download failed",
    detail: "The media file could not be downloaded. Please try again.",
  },
  ERR_TICKET_ALREADY_ASSIGNED: {
    title: "Transfer not done",
    detail: "This ticket already belongs to the selected user or queue.",
  },

  // --- auto-reply and flows ---
  ERR_AUTO_REPLY_NOT_FOUND: {
    title: "Auto-reply not found",
    detail: "The auto-reply or its step was not found.",
  },
  ERR_AUTO_REPLY_IN_USE: {
    title: "Auto-reply in use",
    detail: "This auto-reply is linked to a ticket and cannot be deleted.",
  },
  ERR_FLOW_NOT_FOUND: {
    title: "Flow not found",
    detail: "The flow or its step was not found.",
  },
  ERR_FLOW_IN_USE: {
    title: "Flow in use",
    detail: "This flow is used in tickets or services and cannot be deleted.",
  },
  ERR_AUTO_REPLY_SINGLE_INITIAL_STEP: {
    title: "Duplicate initial step",
    detail: "Each auto-reply can have only one initial step.",
  },
  ERR_CHATBOT_NOT_OWNER: {
    title: "Ticket not with this chatbot",
    detail: "This ticket is no longer with this chatbot (an agent took it or another bot received it).",
  },

  // --- campaigns ---
  ERR_CAMPAIGN_NOT_FOUND: {
    title: "Campaign not found",
    detail: "The campaign does not exist or you do not have access to it.",
  },
  ERR_CAMPAIGN_CONTACTS_MISSING: {
    title: "Campaign has no contacts",
    detail: "Add contacts to the campaign before continuing.",
  },
  ERR_CAMPAIGN_NOT_EDITABLE: {
    title: "Campaign cannot be edited",
    detail: "Only pending or canceled campaigns can be edited.",
  },
  ERR_CAMPAIGN_DATE_INVALID: {
    title: "Invalid campaign date",
    detail: "Enter a valid start date later than the current time.",
  },
  ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE: {
    title: "Contacts required",
    detail: "Link contacts to the campaign to be able to schedule it.",
  },
  ERR_CAMPAIGN_PAST_DATE: {
    title: "Date in the past",
    detail: "A campaign cannot be scheduled with a past date.",
  },

  // --- SMS ---
  ERR_SMS_INVALID_TOKEN: {
    title: "Invalid SMS token",
    detail: "The SMS service token is invalid. Please contact your reseller.",
  },
  ERR_SMS_INSUFFICIENT_CREDITS: {
    title: "Insufficient credits",
    detail: "You do not have enough SMS credits for all recipients. Buy more credits to continue.",
  },

  // --- others ---
  ERR_QUICK_MESSAGE_NOT_FOUND: {
    title: "Quick reply not found",
    detail: "The quick reply does not exist or has been deleted.",
  },
  ERR_QUICK_MESSAGE_EXISTS: {
    title: "Quick reply already exists",
    detail: "A quick reply with this shortcut already exists.",
  },
  ERR_QUEUE_NOT_FOUND: {
    title: "Queue not found",
    detail: "The queue does not exist or has been deleted.",
  },
  ERR_QUEUE_HAS_TICKETS: {
    title: "Queue has tickets",
    detail: "This queue has linked tickets and cannot be deleted.",
  },
  ERR_TAG_NOT_FOUND: {
    title: "Tag not found",
    detail: "The tag does not exist or has been deleted.",
  },
  ERR_TAG_HAS_CONTACTS: {
    title: "Tag in use",
    detail: "This tag is linked to contacts and cannot be deleted.",
  },
  ERR_SETTING_NOT_FOUND: {
    title: "Setting not found",
    detail: "The requested setting does not exist.",
  },
  ERR_TENANT_NOT_FOUND: {
    title: "Company not found",
    detail: "The company does not exist or has been removed.",
  },
  ERR_TENANT_INACTIVE: {
    title: "Inactive company",
    detail: "Access for this company is disabled. Contact support or your reseller.",
  },
  ERR_API_CONFIG_NOT_FOUND: {
    title: "API configuration not found",
    detail: "The API configuration does not exist or has been deleted.",
  },
  ERR_SCHEDULE_NOT_FOUND: {
    title: "Schedule not found",
    detail: "The scheduled item does not exist or has been deleted.",
  },
  ERR_SCHEDULE_CONFLICT: {
    title: "Time conflict",
    detail: "Something is already scheduled at this time. Choose another time.",
  },
  ERR_SCHEDULE_INVALID_DATE: {
    title: "Invalid date",
    detail: "Enter a valid date that is not in the past.",
  },
  ERR_SCHEDULE_INVALID_HOUR: {
    title: "Invalid time",
    detail: "Enter a valid time that is not in the past.",
  },
  ERR_REQUIRED_BODY: {
    title: "Message required",
    detail: "Write the message before continuing.",
  },
  ERR_REQUIRED_CONTACT: {
    title: "Contact required",
    detail: "Select a contact to continue.",
  },
  ERR_REQUIRED_SEND_AT: {
    title: "Send date required",
    detail: "Enter the date and time to send.",
  },
  ERR_REQUIRED_CONNECTION: {
    title: "Connection required",
    detail: "Select a connection to continue.",
  },
  ERR_REQUIRED_USER: {
    title: "User required",
    detail: "Select a user to continue.",
  },
  ERR_INVALID_INTERVAL: {
    title: "Invalid interval",
    detail: "The interval values are invalid. Check the minimum and maximum and try again.",
  },
  ERR_USER_OUTSIDE_AVAILABILITY: {
    title: "Outside availability",
    detail: "The chosen time is outside the user's availability.",
  },
  ERR_USER_NO_AVAILABILITY_DAY: {
    title: "User unavailable that day",
    detail: "The user has no available hours on this date.",
  },
  ERR_NO_FILE_UPLOADED: {
    title: "No file uploaded",
    detail: "Select a file to upload.",
  },
  ERR_SERVICE_NOT_FOUND_FOR_USER: {
    title: "Service not found",
    detail: "This service is not available for the selected user.",
  },
  ERR_INVALID_IMAGE_FORMAT: {
    title: "Invalid image format",
    detail: "Upload an image in a supported format, such as JPG or PNG.",
  },
  ERR_BUSINESS_HOURS_NOT_FOUND: {
    title: "Business hours not found",
    detail: "These business hours do not exist or were deleted.",
  },
  ERR_BUSINESS_HOURS_TARGET_REQUIRED: {
    title: "Choose who they apply to",
    detail: "Hours by queue, user or WhatsApp need at least one target chosen.",
  },
  ERR_BUSINESS_HOURS_INVALID_RANGE: {
    title: "Invalid hours",
    detail: "A start must come before its end, and the morning must end before the afternoon starts ({{day}}).",
  },
  ERR_BUSINESS_HOURS_CONFLICT: {
    title: "Hours already set",
    detail: "Active hours already exist for this target. Edit them or deactivate them first.",
  },
  ERR_HOLIDAY_NOT_FOUND: {
    title: "Holiday not found",
    detail: "This holiday does not exist or was deleted.",
  },
  ERR_URL_NOT_ALLOWED: {
    title: "Address not allowed",
    detail: "This address points to an internal network (localhost, a private network or link-local) and cannot be used. Use a public address.",
  },

  // --- licence and plan ---
  ERR_LICENSE_INVALID: {
    title: "Invalid licence",
    detail: "The licence entered is invalid. Check the details or contact your reseller.",
  },
  ERR_LICENSE_EXPIRED: {
    title: "Licence expired",
    detail: "Your licence has expired. Renew it to keep using the system.",
  },
  ERR_LICENSE_BLOCKED: {
    title: "Licence blocked",
    detail: "Your licence is blocked. Contact support or your reseller.",
  },
  ERR_LICENSE_WRONG_DOMAIN: {
    title: "Domain not authorised",
    detail: "This licence is not valid for this domain.",
  },
  ERR_LICENSE_WRONG_CODE: {
    title: "Incorrect licence code",
    detail: "The licence code does not match. Check it and try again.",
  },
  ERR_LICENSE_TIER_REQUIRED: {
    title: "Feature not in your plan",
    detail: "This feature requires the {{requiredTier}} licence or higher. Upgrade to use it.",
  },
  ERR_FREE_PLAN_VIOLATION: {
    title: "Not available on the free plan",
    detail: "This action is not allowed on the free plan. Upgrade to continue.",
  },
  ERR_FREE_PLAN_QUEUE_LIMIT: {
    title: "Queue limit",
    detail: "The free plan allows only one active queue. Upgrade to use more queues.",
  },
  ERR_FREE_PLAN_CHATFLOW_LIMIT: {
    title: "Flow limit",
    detail: "The free plan allows only one active chatbot flow. Upgrade to activate more.",
  },
  ERR_FREE_PLAN_CONNECTION_LIMIT: {
    title: "Free plan connection limit",
    detail: "The free plan allows only one connection. Upgrade to add more.",
  },
  ERR_CONNECTION_LIMIT: {
    title: "Connection limit reached",
    detail: "You already have {{current}} of {{max}} allowed connections. Upgrade your plan to add more.",
  },
  ERR_RESELLER_CONNECTION_LIMIT: {
    title: "Reseller limit reached",
    detail: "Your reseller's overall connection limit has been reached. Please contact your reseller.",
  },

  // --- passkey ---
  ERR_PASSKEY_NOT_SUPPORTED: {
    title: "Passkeys not supported",
    detail: "Your browser or device does not support passkeys. Use another browser or sign in with your password.",
  },
  ERR_PASSKEY_HTTPS_REQUIRED: {
    title: "Secure connection required",
    detail: "Passkeys only work on HTTPS addresses.",
  },
  ERR_PASSKEY_CHALLENGE_MISSING: {
    title: "Verification data missing",
    detail: "The passkey verification data was not received. Please try again.",
  },
  ERR_PASSKEY_NOT_RECOGNISED: {
    title: "Passkey not recognised",
    detail: "This passkey was not recognised. Use another passkey or sign in with your password.",
  },
  ERR_PASSKEY_TIMEOUT: {
    title: "Verification timed out",
    detail: "The passkey verification took too long. Please try again.",
  },
  ERR_PASSKEY_CANCELLED: {
    title: "Verification cancelled",
    detail: "The passkey verification was cancelled.",
  },
  ERR_PASSKEY_DENIED: {
    title: "Permission denied",
    detail: "Use of the passkey was not allowed. Allow it in your browser or device and try again.",
  },
  ERR_PASSKEY_ABORTED: {
    title: "Operation interrupted",
    detail: "The passkey operation was interrupted. Please try again.",
  },
  ERR_PASSKEY_INVALID_STATE: {
    title: "Passkey already registered",
    detail: "This passkey is already registered on this device or cannot be used right now.",
  },
  ERR_PASSKEY_SECURITY: {
    title: "Security error",
    detail: "The passkey was blocked by a browser security rule. Make sure you are on the system's correct address.",
  },
  ERR_PASSKEY_USER_NOT_FOUND: {
    title: "Passkey user not found",
    detail: "No user was found for this passkey.",
  },
  ERR_PASSKEY_NONE_FOUND: {
    title: "No passkey registered",
    detail: "There is no passkey registered for this user. Sign in with your password and register one.",
  },

  // --- voice ---
  ERR_VOICE_NUMBER_NOT_EXISTS: {
    title: "Number does not exist",
    detail: "The number called does not exist or is not on WhatsApp.",
  },
  ERR_VOICE_LINE_BUSY: {
    title: "Line busy",
    detail: "All lines are busy right now. Try again later or upgrade your plan for more lines.",
  },

  // --- misc ---
  ERR_AI_VOICES_LOAD: {
    title: "Could not load voices",
    detail: "The AI voices could not be loaded. Check the provider credentials.",
  },
  ERR_CHAT_BUILDER_URL: {
    title: "Chatbot builder unavailable",
    detail: "The chatbot builder address could not be loaded. Check the configuration or try again later.",
  },
  ERR_CHANNEL_UNSUPPORTED: {
    title: "Not supported by this channel",
    detail: "This channel does not support this kind of message or action.",
  },
  ERR_GIF_SEARCH_NOT_CONFIGURED: {
    title: "GIF search not set up",
    detail: "GIF search needs a GIPHY API key in the platform's global settings. Ask the platform administrator to add one.",
  },
  ERR_GIF_SEARCH_FAILED: {
    title: "GIF search unavailable",
    detail: "The GIF service did not answer as expected. Please try again shortly.",
  },
  ERR_CONNECTION_NOT_FOUND: {
    title: "Connection not found",
    detail: "The connection does not exist or was removed.",
  },
  ERR_CONNECTION_NAME_IN_USE: {
    title: "Connection name in use",
    detail: "A connection with this name already exists. Choose another name.",
  },
  ERR_CONNECTION_DELETE_CONFIRMATION: {
    title: "Confirmation required",
    detail: "To delete the connection, type DELETE or the connection's name.",
  },
  ERR_CONNECTION_TRANSFER_SAME: {
    title: "Same connection",
    detail: "Choose different origin and destination connections.",
  },
  ERR_PLUGIN_NOT_FOUND: {
    title: "Module not found",
    detail: "The requested module is not installed.",
  },
  ERR_PLUGIN_DISABLED: {
    title: "Module disabled",
    detail: "This module is not enabled for your company. Contact your administrator.",
  },
  ERR_PLUGIN_UNAVAILABLE: {
    title: "Module unavailable",
    detail: "The module is not running right now. Try again in a moment.",
  },
  ERR_PLUGIN_NOT_ALLOWED: {
    title: "Module not available for your company",
    detail: "This module has not been made available to your company. Contact your reseller.",
  },
  ERR_PLUGIN_VERSION_UNAVAILABLE: {
    title: "Module version unavailable",
    detail: "The module version this connection uses is not installed. Contact support.",
  },
  ERR_CONNECTION_INACTIVE: {
    title: "Connection inactive",
    detail: "This connection's channel is disabled for your company: nothing is sent or received through it until it is enabled again.",
  },
  ERR_ARCHIVE_INVALID: {
    title: "Invalid plugin archive",
    detail: "The file is not a plugin archive (a gzip-compressed tar made by plugin-sdk pack) or it is damaged.",
  },
  ERR_ARCHIVE_CHECKSUM_MISMATCH: {
    title: "Checksum does not match",
    detail: "The archive's SHA-256 checksum is not the one sent with it. The file changed on the way: pack and send it again.",
  },
  ERR_ARCHIVE_PATH_UNSAFE: {
    title: "Unsafe path in the archive",
    detail: "The archive holds an entry with an absolute path, a '..' step, a link or a special file. Nothing was stored.",
  },
  ERR_ARCHIVE_TOO_LARGE: {
    title: "Archive too large",
    detail: "The plugin archive is larger than the marketplace accepts.",
  },
  ERR_ARCHIVE_MANIFEST_INVALID: {
    title: "Invalid plugin manifest",
    detail: "The archive's package.json is missing or its manifest is invalid, or files the manifest names are missing.",
  },
  ERR_MARKETPLACE_TOKEN_INVALID: {
    title: "Invalid publisher token",
    detail: "The publisher token is missing, wrong or revoked. Ask the marketplace administrator for a new one.",
  },
  ERR_MARKETPLACE_PUBLISHER_NOT_FOUND: {
    title: "Publisher not found",
    detail: "This publisher does not exist.",
  },
  ERR_MARKETPLACE_PUBLISHER_EXISTS: {
    title: "Publisher already exists",
    detail: "A publisher with this e-mail already exists.",
  },
  ERR_MARKETPLACE_PLUGIN_OWNED: {
    title: "Plugin belongs to another publisher",
    detail: "This plugin id was published by another publisher. Choose another id.",
  },
  ERR_MARKETPLACE_PLUGIN_NOT_FOUND: {
    title: "Plugin not in the catalogue",
    detail: "The marketplace has no plugin with this id.",
  },
  ERR_MARKETPLACE_VERSION_NOT_FOUND: {
    title: "Version not found",
    detail: "The marketplace has no such version of this plugin.",
  },
  ERR_MARKETPLACE_VERSION_EXISTS: {
    title: "Version already published",
    detail: "This version of the plugin is already published. Raise the version number and publish again.",
  },
  ERR_PLUGIN_INSTALLS_DISABLED: {
    title: "Installing plugins is off",
    detail: "This platform does not run plugins installed from the marketplace (PLUGIN_INSTALLS).",
  },
  ERR_PLUGIN_FORBIDDEN: {
    title: "Not allowed to plugins",
    detail: "A plugin may call only the actions of the core meant for plugins, as itself: this call was refused.",
  },
  ERR_PLUGIN_NOT_INSTALLED: {
    title: "Plugin not installed",
    detail: "This plugin, or this version of it, is not installed on the platform.",
  },
  ERR_PLUGIN_ALREADY_INSTALLED: {
    title: "Version already running",
    detail: "This version of the plugin is already installed and running.",
  },
  ERR_PLUGIN_BUNDLED: {
    title: "Plugin shipped with the platform",
    detail: "A plugin shipped with the platform has this id: it cannot be installed, replaced or removed from the marketplace.",
  },
  ERR_PLUGIN_IN_USE: {
    title: "Plugin in use",
    detail: "Connections still use this plugin. Delete or move them before uninstalling it.",
  },
  ERR_PLUGIN_ROLLBACK_UNAVAILABLE: {
    title: "No version to roll back to",
    detail: "There is no previous installed version of this plugin.",
  },
  ERR_PLUGIN_INSTALL_FAILED: {
    title: "Plugin did not start",
    detail: "The plugin was unpacked but its service did not start. The previous state was kept.",
  },
  ERR_MEDIA_TOO_LARGE: {
    title: "File too large",
    detail: "Each file may be at most 10 MB, and the whole upload at most 30 MB.",
  },
  ERR_IMPORT_NOT_FOUND: {
    title: "Import not found",
    detail: "This import does not exist or has expired.",
  },
  ERR_QUICK_MESSAGE_AMBIGUOUS: {
    title: "Ambiguous shortcut",
    detail: "More than one quick message starts with this shortcut. Type a more exact shortcut.",
  },
  ERR_SEARCH_TOO_SHORT: {
    title: "Search too short",
    detail: "Type at least 2 letters to search.",
  },
  ERR_TICKET_REOPEN_BLOCKED: {
    title: "Reopening blocked",
    detail: "This ticket was closed a short while ago and cannot be reopened yet.",
  },
  ERR_TRANSFER_TARGET_REQUIRED: {
    title: "Destination required",
    detail: "Choose a user or a queue to transfer the ticket to.",
  },
  ERR_MESSAGE_NOT_FOUND: {
    title: "Message not found",
    detail: "The message does not exist or was removed.",
  },
  ERR_MESSAGE_EDIT_NOT_ALLOWED: {
    title: "Editing not allowed",
    detail: "Only text messages you sent can be edited.",
  },
  ERR_TAG_EXISTS: {
    title: "Tag already exists",
    detail: "A tag with this name already exists.",
  },
  ERR_GROUP_PARTICIPANT_LIMIT: {
    title: "Too many participants",
    detail: "A group can have at most 1023 participants.",
  },
  ERR_GROUP_PICTURE_TOO_LARGE: {
    title: "Group photo too large",
    detail: "The group photo may be at most 5 MB.",
  },
  ERR_WHATSAPP_GROUP_REFUSED: {
    title: "WhatsApp refused the group operation",
    detail: "WhatsApp did not accept the request for this group. Check that the connected number is an admin of the group and try again.",
  },
};

export default en;

export const validation: Record<ValidationRule, string> = {
  required: "The {{field}} field is required.",
  string: "The {{field}} field must be text.",
  stringEmpty: "The {{field}} field cannot be empty.",
  stringMin: "The {{field}} field must be at least {{expected}} characters long.",
  stringMax: "The {{field}} field must be at most {{expected}} characters long.",
  stringLength: "The {{field}} field must be exactly {{expected}} characters long.",
  stringPattern: "The {{field}} field is in an invalid format.",
  stringEnum: "The value of the {{field}} field is not one of the allowed options: {{expected}}.",
  number: "The {{field}} field must be a number.",
  numberMin: "The {{field}} field must be greater than or equal to {{expected}}.",
  numberMax: "The {{field}} field must be less than or equal to {{expected}}.",
  numberInteger: "The {{field}} field must be a whole number.",
  numberPositive: "The {{field}} field must be a positive number.",
  boolean: "The {{field}} field must be yes or no.",
  date: "The {{field}} field must be a valid date.",
  dateMin: "The {{field}} field must be a date on or after {{expected}}.",
  dateMax: "The {{field}} field must be a date on or before {{expected}}.",
  email: "The {{field}} field must be a valid e-mail address.",
  emailEmpty: "Enter an e-mail address in the {{field}} field.",
  emailMin: "The e-mail in the {{field}} field must be at least {{expected}} characters long.",
  emailMax: "The e-mail in the {{field}} field must be at most {{expected}} characters long.",
  enumValue: "The value {{actual}} is not allowed in the {{field}} field. Accepted values: {{expected}}.",
  equalValue: "The {{field}} field must be equal to {{expected}}.",
  equalField: "The {{field}} field must match the {{expected}} field.",
  array: "The {{field}} field must be a list.",
  arrayEmpty: "The {{field}} list cannot be empty.",
  arrayMin: "The {{field}} list must have at least {{expected}} items.",
  arrayMax: "The {{field}} list must have at most {{expected}} items.",
  arrayLength: "The {{field}} list must have exactly {{expected}} items.",
  arrayUnique: "The {{field}} list has repeated values: {{actual}}.",
  object: "The {{field}} field must contain a valid set of data.",
  objectStrict: "The {{field}} field contains information that is not allowed: {{actual}}.",
  uuid: "The {{field}} field must contain a valid identifier.",
  url: "The {{field}} field must contain a valid web address (URL).",
  forbidden: "The {{field}} field is not allowed.",
  any: "The {{field}} field is invalid.",
  password:
    "The {{field}} field must be at least 8 characters long and include an upper-case letter, a lower-case letter and a number, using letters and numbers only.",
  document: "The {{field}} field must contain a valid CPF or CNPJ.",
  phone: "The {{field}} field must contain a valid phone number, including the country and area codes.",
};

export const ui: UiTexts = {
  genericErrorTitle: "Unidentified error",
  genericErrorDetail: "An unidentified error occurred. Please try again and contact support if the problem persists.",
  successTitle: "All set...",
  resetMailSubject: "Password reset",
  resetMailText:
    "Hello, {{name}}!\n\n" +
    "We received a request to reset your password. To create a new password, open the link below:\n\n" +
    "{{link}}\n\n" +
    "This link is valid for 5 minutes. If you did not make this request, ignore this e-mail: your password will stay the same.",
  resetMailHtml:
    "<p>Hello, {{name}}!</p>" +
    "<p>We received a request to reset your password. Click the link below to create a new password:</p>" +
    '<p><a href="{{link}}">Reset my password</a></p>' +
    "<p>This link is valid for <strong>5 minutes</strong>. If you did not make this request, ignore this e-mail: your password will stay the same.</p>" +
    "<p>If the link does not open, copy and paste this address into your browser:<br>{{link}}</p>",
  contactLimitBanner:
    "You have reached your plan's contact limit ({{current}} of {{max}}). Upgrade your plan to add more contacts.",
  licenceNotice: "This feature is available from the {{requiredTier}} licence upwards. Upgrade your plan to use it.",
};
