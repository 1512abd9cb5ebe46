# One image for the web server and the workers, built from this repository (see README "Deployment").
FROM node:20-bookworm
# debootstrap builds the sandbox base image on a Docker host that lacks it; the docker CLI is for diagnosis.
RUN apt-get update && apt-get install -y --no-install-recommends debootstrap docker.io && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run db:generate && npx next build
ENV NODE_ENV=production
EXPOSE 3000
ENV HOST=0.0.0.0 PORT=3000
CMD ["node", "bin/envolve.mjs", "web"]
