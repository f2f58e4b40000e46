# One image for every node of the cluster; SERVICES picks what a container runs.
FROM node:22-bookworm-slim
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY config/package.json config/
COPY contracts/package.json contracts/
COPY core/package.json core/
COPY plugin-sdk/package.json plugin-sdk/
COPY shell/package.json shell/
COPY marketplace/package.json marketplace/
COPY plugins/channel-email/package.json plugins/channel-email/
COPY plugins/channel-telegram/package.json plugins/channel-telegram/
COPY plugins/channel-webchat/package.json plugins/channel-webchat/
COPY plugins/channel-whatsapp/package.json plugins/channel-whatsapp/
COPY plugins/channel-wuzapi/package.json plugins/channel-wuzapi/
COPY plugins/module-kanban/package.json plugins/module-kanban/
COPY plugins/module-notes/package.json plugins/module-notes/
RUN npm install --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
EXPOSE 8080
CMD ["npm", "start"]
