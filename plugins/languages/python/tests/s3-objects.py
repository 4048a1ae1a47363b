# SPDX-License-Identifier: GPL-2.0-or-later
"""The objects of an S3 bucket, one a line: key, a tab, the content as a
Python bytes literal, by key.
    python3 s3-objects.py URL BUCKET"""

import sys

import boto3

client = boto3.client("s3", endpoint_url=sys.argv[1], aws_access_key_id="test", aws_secret_access_key="test",
                      region_name="us-east-1")
try:
    contents = client.list_objects_v2(Bucket=sys.argv[2]).get("Contents", [])
except client.exceptions.NoSuchBucket:
    contents = []
for key in sorted(o["Key"] for o in contents):
    print("%s\t%r" % (key, client.get_object(Bucket=sys.argv[2], Key=key)["Body"].read()))
